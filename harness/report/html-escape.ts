const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** A byte a page cannot show, as people write it: `\x00`. */
export function byteEscape(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, '0')}`;
}

/** C0 control characters but tab, line feed and carriage return, and DEL: text a page cannot show as it is. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
export const CONTROL_CHARACTER = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/**
 * A field value as people read it in a table: JSON for values (so "1" and 1 differ), a dash for a field absent
 * on that side; the text around a byte difference of the `body` as it is, its control characters as `\x00`.
 */
export function showValue(value: unknown, path = ''): string {
  if (value === undefined) return '—';
  const text =
    path === 'body' && typeof value === 'string'
      ? value.replace(new RegExp(CONTROL_CHARACTER, 'g'), (c) => byteEscape(c.charCodeAt(0)))
      : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
