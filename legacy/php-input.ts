/**
 * Request input read the way the legacy PHP service read it, so every PMS request that worked still does:
 * query strings through `parse_str` (bracket syntax nests: `guests[adults]=2&guests[children_by_ages][0][age]=5`),
 * bodies through `json_decode(php://input, true)` whatever the content type (malformed JSON is simply no
 * input), with a form-encoded body parsed like a query string and a multipart one read like PHP's `$_POST`.
 * Values stay loosely typed: a numeric string counts as a number wherever PHP's comparisons would have accepted it.
 */
import { isUtf8 } from 'node:buffer';
import { nestingDepth } from '../server/core/http/read-body.ts';

export type PhpValue = string | number | boolean | null | PhpValue[] | { [key: string]: PhpValue };
export type PhpArray = { [key: string]: PhpValue };

export function parseQuery(search: string): PhpArray {
  const out: PhpArray = {};
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    assign(out, name, value);
  }
  return out;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Percent-decoding as PHP's urldecode did it: every well-formed `%XX` is its byte and any other `%` stays as sent
 * (`100%` and `Sea%20View%` read `100%` and `Sea View%`; decodeURIComponent refuses the whole value). Bytes that
 * are not UTF-8 have no string of their own here: such a value is left as sent.
 */
function decode(s: string): string {
  const text = s.replaceAll('+', ' ');
  try {
    return decodeURIComponent(text);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
  }
  const sent = Buffer.from(text, 'utf8');
  const bytes: number[] = [];
  for (let i = 0; i < sent.length; i++) {
    const hex = sent[i] === 0x25 ? sent.subarray(i + 1, i + 3).toString('latin1') : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(sent[i] as number);
  }
  try {
    return strictUtf8.decode(new Uint8Array(bytes));
  } catch {
    return text;
  }
}

/**
 * `a[b][]=v`, as PHP registers a query or form variable: leading spaces of the name dropped, spaces and dots of the
 * base name turned into `_`; `[]` appends at the next integer key.
 */
function assign(target: PhpArray, sent: string, value: string): void {
  const name = sent.replace(/^ +/, '');
  const open = name.indexOf('[');
  const close = open < 0 ? -1 : name.indexOf(']', open);
  const base = (close < 0 ? name : name.slice(0, open)).replace(/[ .[]/g, '_');
  if (!base) return;
  if (close < 0) {
    setOwn(target, base, value);
    return;
  }
  const keys: string[] = [];
  const re = /\[([^\]]*)\]/y;
  re.lastIndex = open;
  for (let m = re.exec(name); m; m = re.exec(name)) keys.push(m[1] ?? '');
  let node: PhpArray = target;
  let key = base;
  for (const next of keys) {
    const child = Object.hasOwn(node, key) ? node[key] : undefined;
    const container: PhpArray = child && typeof child === 'object' && !Array.isArray(child) ? child : {};
    setOwn(node, key, container);
    node = container;
    key = next === '' ? String(nextIndexes.get(container) ?? 0) : next;
  }
  setOwn(node, key, value);
}

/**
 * A key of the request's own, whatever its name: PHP's arrays have no prototype, and `__proto__[x]=1` written with
 * `node[key] =` walked into Object.prototype and set `x` on every object of the process. An own data property
 * named `__proto__` is just a key, as it was in PHP.
 */
function setOwn(node: PhpArray, key: string, value: PhpValue): void {
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
  if (/^(0|-?[1-9]\d*)$/.test(key)) nextIndexes.set(node, Math.max(nextIndexes.get(node) ?? 0, Number(key) + 1));
}

/**
 * The key `[]` appends at, per array, as PHP keeps it: one more than the largest integer key so far, at least 0.
 * Kept as keys are set: found by rescanning every key, 4000 `a[]` in one URL held the event loop for 2 s, before
 * the api_key was checked.
 */
const nextIndexes = new WeakMap<PhpArray, number>();

/**
 * json_decode's default depth (PHP_JSON_PARSER_DEFAULT_DEPTH): deeper JSON was no input at all (NULL,
 * JSON_ERROR_DEPTH). Checked by a scan before any parse, as the modern API checks its own, lower bound.
 */
const PHP_JSON_DEPTH = 512;

/**
 * The request's body as the legacy service read it. A multipart/form-data body leaves php://input empty in PHP, so
 * the service read `$_POST`, which PHP fills from the body's fields (named like query variables, `a[b]` nests);
 * file parts went to `$_FILES`, which no method reads. A malformed one, or one without fields, is no input.
 * A GET's body never gets here over HTTP: Bun's server hands a GET no body, where PHP read php://input for any verb
 * (a known difference, README; pinned by php-input.served.test.ts).
 */
export async function readBody(request: Request): Promise<PhpValue> {
  const contentType = request.headers.get('content-type');
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    // json_decode refused what is not UTF-8 (JSON_ERROR_UTF8) and a leading byte-order mark (a syntax error):
    // such a body was no JSON input, where request.text() would have read it with U+FFFD and without the mark.
    const text = bodyText.decode(bytes);
    if (!isUtf8(bytes)) return isForm(contentType) ? parseQuery(text) : null;
    return parseBody(text, contentType);
  }
  const form = await request.formData().catch((error: unknown) => {
    // Only a body that is no multipart form (TypeError) means "no input"; anything else is a fault to surface.
    if (!(error instanceof TypeError)) throw error;
  });
  if (!form) return null;
  const out: PhpArray = {};
  for (const [name, value] of form) if (typeof value === 'string') assign(out, name, value);
  return Object.keys(out).length ? out : null;
}

export function parseBody(text: string, contentType: string | null): PhpValue {
  if (!text.trim()) return null;
  try {
    if (nestingDepth(text) > PHP_JSON_DEPTH) throw new SyntaxError('Maximum stack depth exceeded');
    return JSON.parse(text) as PhpValue;
  } catch (error) {
    // Only malformed JSON (SyntaxError) means "no JSON input"; anything else is a fault to surface.
    if (!(error instanceof SyntaxError)) throw error;
    if (isForm(contentType)) return parseQuery(text);
    return null;
  }
}

/** The body as text with a byte-order mark kept (PHP saw it), and each byte that is not UTF-8 as U+FFFD. */
const bodyText = new TextDecoder('utf-8', { ignoreBOM: true });

function isForm(contentType: string | null): boolean {
  return contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded') ?? false;
}

/** PHP `isset($x) && $x !== ''`: the legacy checks treat an empty string like a missing field. */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * A text input as a method looks it up or stores it: a string, or a number's digits (PHP's string cast); null for
 * a value that is not set (`isSet`), not a scalar text (an array, an object, a boolean), or a string holding a
 * NUL byte. PHP and MySQL carried a NUL like any other byte; PostgreSQL's text refuses it (22021), which answered
 * the unhandled failure. Nothing stored holds one (every write takes its text through here, postExternalPropertyData's
 * codes through `holdsNul`), so a lookup given null finds nothing, as the legacy's lookup of such a value found
 * nothing, and a required text that is null fails the method's own check for a missing one.
 */
export function optionalText(value: unknown): string | null {
  if (!isSet(value) || (typeof value !== 'string' && typeof value !== 'number')) return null;
  const text = String(value);
  return text.includes('\0') ? null : text;
}

/** Whether a NUL byte is anywhere in a decoded input, keys included: PostgreSQL's jsonb refuses one too (22P05). */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, v]) => key.includes('\0') || holdsNul(v));
}

export function isArray(value: unknown): value is PhpArray {
  return typeof value === 'object' && value !== null;
}

/** A whole number given as a JSON integer or a decimal-integer string; undefined for anything else. */
export function looseInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*[-+]?\d{1,15}\s*$/.test(value)) return Number(value);
  return undefined;
}

/** A number given as JSON number or numeric string (PHP `is_numeric`). */
export function looseNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** A boolean as PHP PMS clients send it: true/false, 1/0, or their string forms. */
export function looseBool(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

/** A PHP list from either a JSON array or a bracket-syntax query array (`x[0]=..&x[1]=..`). */
export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isArray(value)) return Object.values(value);
  return undefined;
}
