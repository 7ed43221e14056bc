import { appendSegment } from '../compare/json-path.ts';
import { escapeHtml } from './html-escape.ts';

export type Mark = 'diff' | 'noise';

const MAX_BODY_CHARS = 60_000;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A body as an indented, readable block with the differing fields marked (`diff`) and the forgiven ones dimmed
 * (`noise`). JSON is laid out one field a line; other text is shown as it is; binary as its size.
 */
export function bodyView(bytes: Uint8Array | undefined, marks: ReadonlyMap<string, Mark>): string {
  if (!bytes) return '<pre class="body empty">no answer</pre>';
  if (bytes.length === 0) return '<pre class="body empty">(empty body)</pre>';
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return `<pre class="body empty">(binary, ${bytes.length} bytes)</pre>`;
  }
  if (text.length <= MAX_BODY_CHARS) {
    try {
      return `<pre class="body">${jsonView(JSON.parse(text), '$', marks, '')}</pre>`;
    } catch {}
  }
  const shown = text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}\n… (${text.length} characters)` : text;
  const whole = marks.get('body') ?? marks.get('$');
  return `<pre class="body${whole ? ` ${whole}` : ''}">${escapeHtml(shown)}</pre>`;
}

/** `marked`: false for an object member, whose mark already wraps its key and value. */
function jsonView(
  value: unknown,
  path: string,
  marks: ReadonlyMap<string, Mark>,
  indent: string,
  marked = true,
): string {
  const inner = `${indent}  `;
  let html: string;
  if (Array.isArray(value)) {
    html = value.length
      ? `[\n${value.map((item, i) => inner + jsonView(item, appendSegment(path, i), marks, inner)).join(',\n')}\n${indent}]`
      : '[]';
  } else if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    html = entries.length
      ? `{\n${entries
          .map(([key, item]) => {
            const childPath = appendSegment(path, key);
            const child = jsonView(item, childPath, marks, inner, false);
            const mark = marks.get(childPath);
            const keyHtml = `<span class="key">${escapeHtml(JSON.stringify(key))}</span>: `;
            return mark ? `${inner}<mark class="${mark}">${keyHtml}${child}</mark>` : `${inner}${keyHtml}${child}`;
          })
          .join(',\n')}\n${indent}}`
      : '{}';
  } else {
    html = `<span class="${typeof value === 'string' ? 'str' : 'lit'}">${escapeHtml(JSON.stringify(value))}</span>`;
  }
  const mark = marked ? marks.get(path) : undefined;
  return mark ? `<mark class="${mark}">${html}</mark>` : html;
}
