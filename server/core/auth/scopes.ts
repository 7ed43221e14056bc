export const SCOPES = [
  'inventory.read',
  'inventory.write',
  'properties.manage',
  'bookings.read',
  'bookings.write',
  'subscriptions.manage',
  'groups.manage',
  'analytics.read',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** properties.manage implies inventory reads (spec 5.4). */
export function grants(held: ReadonlySet<string>, needed: Scope): boolean {
  if (held.has(needed)) return true;
  return needed === 'inventory.read' && held.has('properties.manage');
}
