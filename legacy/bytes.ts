/**
 * Every byte the legacy PMS v1 facade sends is decided here, and only here (spec 1.4, 7.4). The legacy
 * service was PHP; where the spec leaves a byte open we chose what PHP 7.1+ produced, so that a recorded
 * corpus of real legacy traffic can correct any choice by editing this one file:
 *
 * - Body: PHP `json_encode($value)` with default flags: no spaces, `/` escaped as `\/`, every non-ASCII
 *   UTF-16 code unit as a lowercase `\uXXXX`, control characters as `\b \f \n \r \t` or `\u00XX`;
 *   `<`, `>`, `&`, `'` and DEL are not escaped (no JSON_HEX_* flags).
 * - Numbers: integers as digits; floats (values wrapped in `PhpFloat`, or any non-integral number) as PHP's
 *   `serialize_precision = -1` output: shortest round-trip digits, a `.0` on integral values (`25.0`),
 *   exponent form `1.0e-5` / `1.0e+25` below 1e-4 and from 1e17 on (php_gcvt with 17 digits).
 * - Objects keep insertion order; a JS object (even empty) is a JSON object, a JS array a JSON list.
 * - Headers: `Content-Type: application/json` and nothing else (no charset, no request id), plus
 *   `X-Support-Ticket` on the one answer that carries an incident ticket, and `X-Qc-Would` on a dry run's
 *   updateAvailability answer (a shadow property, a shadow comparison, `X-Qc-Dry-Run: 1`).
 * - `<dump>` in the 7.4 messages: `json_encode` of the failing row as PHP decoded it
 *   (`json_decode($body, true)`): an empty object or a `0..n-1`-keyed object becomes a list (`[]`), exactly
 *   as a PHP associative array re-encodes. We chose json_encode over print_r because it stays on one line
 *   and PMS logs parse it.
 * - An unhandled failure: 404 with `Throw Error Exception\nMsg: <message>\nCode: <code>`; `<code>` is the
 *   exception code (0 for plain errors, the SQLSTATE for database errors, as PDOException reports it);
 *   file, line and trace are stripped.
 */

/** A value PHP held as a float: `25` renders as `25.0`. */
export class PhpFloat {
  constructor(readonly value: number) {}
}

/** Already-encoded JSON bytes spliced in verbatim (frozen revision snapshots). */
export class RawJson {
  constructor(readonly text: string) {}
}

export function phpJsonEncode(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof RawJson) return value.text;
  if (value instanceof PhpFloat) return phpFloat(value.value);
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? String(value) : phpFloat(value);
    case 'bigint':
      return value.toString();
    case 'string':
      return phpString(value);
  }
  if (Array.isArray(value)) return `[${value.map(phpJsonEncode).join(',')}]`;
  if (value instanceof Map) {
    return `{${[...value].map(([k, v]) => `${phpString(String(k))}:${phpJsonEncode(v)}`).join(',')}}`;
  }
  if (value instanceof Date) return phpString(value.toISOString());
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${phpString(k)}:${phpJsonEncode(v)}`).join(',')}}`;
}

function phpString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x2f) out += '\\/';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c > 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += s[i];
  }
  return `${out}"`;
}

function phpFloat(n: number): string {
  // PHP cannot encode INF/NAN (json_encode fails); 0 is what a failed cast gives, and it never reaches clients
  // from our own data.
  if (!Number.isFinite(n)) return '0';
  if (Object.is(n, -0)) return '-0.0';
  const [mantissa = '0', exp = '0'] = n.toExponential().split('e');
  const digits = mantissa.replace('-', '').replace('.', '');
  const decpt = Number(exp) + 1;
  const sign = n < 0 ? '-' : '';
  if (decpt < -3 || decpt > 17) {
    const rest = digits.slice(1) || '0';
    const e = decpt - 1;
    return `${sign}${digits[0]}.${rest}e${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (digits.length <= decpt) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/**
 * `<dump>`: the failing row re-encoded as PHP would after `json_decode($body, true)`: objects become
 * associative arrays, so an empty object or one keyed 0..n-1 comes back out as a list.
 */
export function dump(row: unknown): string {
  return phpJsonEncode(asPhpArray(row));
}

function asPhpArray(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asPhpArray);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.every(([k], i) => k === String(i))) return entries.map(([, v]) => asPhpArray(v));
  return new Map(entries.map(([k, v]) => [k, asPhpArray(v)]));
}

/** The one way a legacy answer becomes a Response. */
export function legacyResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(phpJsonEncode(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** The body of every legacy success without data. */
export const SUCCESS = { message: 'Success' } as const;

export const success = () => legacyResponse(200, SUCCESS);

export const dataResponse = (data: unknown) => legacyResponse(200, { data });

export function messageResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return legacyResponse(status, { message }, headers);
}

/** The `Throw Error Exception` form of an unhandled failure (no file, line or trace). */
export function thrownErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const shown = typeof code === 'string' || typeof code === 'number' ? code : 0;
  return `Throw Error Exception\nMsg: ${message}\nCode: ${shown}`;
}
