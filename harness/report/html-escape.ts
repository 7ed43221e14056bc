const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/**
 * A field value as people read it in a table: JSON for values (so "1" and 1 differ), a dash for a field absent
 * on that side; the text around a byte difference of the `body` as it is.
 */
export function showValue(value: unknown, path = ''): string {
  if (value === undefined) return '—';
  const text = path === 'body' && typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
