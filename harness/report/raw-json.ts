/**
 * A JSON text parsed into a tree that keeps every scalar and key exactly as written (`240.0`, `"<\/p>"`,
 * `"Caf\u00e9"`) with its byte offset, so the report lays a body out readably without changing a byte of what
 * it shows, and can point at the token where two bodies part. `undefined` when the text is not JSON.
 */
export type RawNode =
  | { kind: 'object'; start: number; members: Array<{ key: string; rawKey: string; value: RawNode }> }
  | { kind: 'array'; start: number; items: RawNode[] }
  | { kind: 'scalar'; start: number; raw: string };

const TOKEN = /[ \t\n\r]*(?:("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)|([{}[\]:,]))/y;

export function parseRawJson(text: string): RawNode | undefined {
  let pos = 0;
  let charToByte: number[] | undefined;
  const byteOffset = (charIndex: number) => {
    // Offsets are bytes, as in the comparison; only non-ASCII text needs the mapping.
    if (!charToByte) {
      charToByte = [];
      let bytes = 0;
      for (let i = 0; i <= text.length; i++) {
        charToByte.push(bytes);
        const code = text.charCodeAt(i);
        bytes +=
          code < 0x80
            ? 1
            : code < 0x800
              ? 2
              : code >= 0xd800 && code < 0xdc00
                ? 4
                : code >= 0xdc00 && code < 0xe000
                  ? 0
                  : 3;
      }
    }
    return charToByte[charIndex] as number;
  };
  const next = (): { text: string; start: number } => {
    TOKEN.lastIndex = pos;
    const match = TOKEN.exec(text);
    if (!match) throw new SyntaxError('not JSON');
    pos = TOKEN.lastIndex;
    const token = (match[1] ?? match[2] ?? match[3]) as string;
    return { text: token, start: pos - token.length };
  };
  const value = (token = next()): RawNode => {
    const start = byteOffset(token.start);
    if (token.text === '{') {
      const members: Array<{ key: string; rawKey: string; value: RawNode }> = [];
      let t = next();
      if (t.text === '}') return { kind: 'object', start, members };
      for (;;) {
        if (!t.text.startsWith('"')) throw new SyntaxError('key expected');
        if (next().text !== ':') throw new SyntaxError(': expected');
        members.push({ key: JSON.parse(t.text) as string, rawKey: t.text, value: value() });
        const after = next().text;
        if (after === '}') return { kind: 'object', start, members };
        if (after !== ',') throw new SyntaxError(', expected');
        t = next();
      }
    }
    if (token.text === '[') {
      const items: RawNode[] = [];
      let t = next();
      if (t.text === ']') return { kind: 'array', start, items };
      for (;;) {
        items.push(value(t));
        const after = next().text;
        if (after === ']') return { kind: 'array', start, items };
        if (after !== ',') throw new SyntaxError(', expected');
        t = next();
      }
    }
    if (/^[\]}:,]$/.test(token.text)) throw new SyntaxError('value expected');
    return { kind: 'scalar', start, raw: token.text };
  };
  try {
    const root = value();
    if (text.slice(pos).trim()) return undefined;
    return root;
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}
