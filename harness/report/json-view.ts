import { appendSegment } from '../compare/json-path.ts';
import { byteEscape, CONTROL_CHARACTER, escapeHtml } from './html-escape.ts';
import { parseRawJson, type RawNode } from './raw-json.ts';

export type Mark = 'diff' | 'noise';

export interface BodyMarks {
  /** Field paths to mark, and how. */
  fields: ReadonlyMap<string, Mark>;
  /** Byte offset of the token where the bodies part outside any field (a `body` difference). */
  byteOffset?: number;
}

const MAX_BODY_CHARS = 60_000;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A body as an indented, readable block that keeps every key and scalar exactly as written, the differing
 * fields marked (`diff`), the forgiven ones dimmed (`noise`), and the token where the bytes part marked too.
 * Other text is shown as it is; a body holding bytes that are not UTF-8 or control characters (a NUL) as the text
 * it holds with each such byte written `\x00`, marked.
 */
export function bodyView(bytes: Uint8Array | undefined, marks: BodyMarks): string {
  if (!bytes) return '<pre class="body empty">no answer</pre>';
  if (bytes.length === 0) return '<pre class="body empty">(empty body)</pre>';
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return escapedView(bytes, marks);
  }
  if (CONTROL_CHARACTER.test(text)) return escapedView(bytes, marks);
  const tree = text.length <= MAX_BODY_CHARS ? parseRawJson(text) : undefined;
  if (tree) return `<pre class="body">${nodeView(tree, '$', marks, '', true)}</pre>`;
  const shown = text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}\n… (${text.length} characters)` : text;
  return `<pre class="body${marks.byteOffset !== undefined ? ' diff' : ''}">${escapeHtml(shown)}</pre>`;
}

/** Every byte as sent: runs of UTF-8 text as text, each byte that is not (or is a control character) as `\x00`. */
function escapedView(bytes: Uint8Array, marks: BodyMarks): string {
  const shown = bytes.subarray(0, MAX_BODY_CHARS);
  let html = '';
  let run = 0;
  for (let i = 0; i < shown.length; ) {
    const length = characterLength(shown, i);
    if (length) {
      i += length;
      continue;
    }
    html += `${escapeHtml(utf8.decode(shown.subarray(run, i)))}<span class="esc">${byteEscape(shown[i] as number)}</span>`;
    run = ++i;
  }
  html += escapeHtml(utf8.decode(shown.subarray(run)));
  if (bytes.length > shown.length) html += `\n… (${bytes.length} bytes)`;
  return `<pre class="body${marks.byteOffset !== undefined ? ' diff' : ''}">${html}</pre>`;
}

/** The byte length of the UTF-8 character a page can show at `i`: 0 for a control character or a byte not UTF-8. */
function characterLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] as number;
  if (lead < 0x80) return CONTROL_CHARACTER.test(String.fromCharCode(lead)) ? 0 : 1;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  if (!length || i + length > bytes.length) return 0;
  try {
    utf8.decode(bytes.subarray(i, i + length));
    return length;
  } catch {
    return 0;
  }
}

/** `marked`: false for an object member, whose mark already wraps its key and value. */
function nodeView(node: RawNode, path: string, marks: BodyMarks, indent: string, marked: boolean): string {
  const inner = `${indent}  `;
  let html: string;
  if (node.kind === 'array') {
    html = node.items.length
      ? `[\n${node.items.map((item, i) => inner + nodeView(item, appendSegment(path, i), marks, inner, true)).join(',\n')}\n${indent}]`
      : '[]';
  } else if (node.kind === 'object') {
    html = node.members.length
      ? `{\n${node.members
          .map(({ key, rawKey, value }) => {
            const childPath = appendSegment(path, key);
            const member = `<span class="key">${escapeHtml(rawKey)}</span>: ${nodeView(value, childPath, marks, inner, false)}`;
            const mark = marks.fields.get(childPath);
            return mark ? `${inner}<mark class="${mark}">${member}</mark>` : `${inner}${member}`;
          })
          .join(',\n')}\n${indent}}`
      : '{}';
  } else {
    html = `<span class="${node.raw.startsWith('"') ? 'str' : 'lit'}">${escapeHtml(node.raw)}</span>`;
    if (node.start === marks.byteOffset) html = `<mark class="diff">${html}</mark>`;
  }
  const mark = marked ? marks.fields.get(path) : undefined;
  return mark ? `<mark class="${mark}">${html}</mark>` : html;
}
