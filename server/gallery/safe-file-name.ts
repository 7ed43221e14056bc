/**
 * The name an upload is listed under (`file_name`), made safe to hand to anyone who writes it to a disk or a
 * page: the last path segment only (`../../etc/passwd` is `passwd`), letters, digits, spaces, `.`, `_`, `-`,
 * `(`, `)` kept and anything else (control characters, quotes, `<`, `/`, `\`) turned into `_`, no leading dots,
 * at most 100 characters; empty, it is `image.<extension>`.
 */
export function safeFileName(sent: string, extension: string): string {
  const base = sent.split(/[/\\]/).at(-1) ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._()-]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  // 100 characters, not UTF-16 units: a letter beyond the BMP (𠮷) is never cut in half.
  return Array.from(cleaned).slice(0, 100).join('') || `image.${extension}`;
}
