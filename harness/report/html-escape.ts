const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** A field value as people read it in a table: JSON for values, a dash for a field absent on that side. */
export function showValue(value: unknown): string {
  if (value === undefined) return '—';
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
