/** A stored timestamp as the API prints it (ISO 8601 in UTC), or null for none. */
export function iso(at: Date | null): string | null {
  return at ? new Date(at).toISOString() : null;
}
