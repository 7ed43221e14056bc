import { type Correspondence, idKind, type Scalar } from '../compare/correspondence.ts';
import { lastKeys } from '../compare/json-path.ts';
import { jsonScalars } from '../compare/json-tokens.ts';

/**
 * A recorded request as the replay sends it once the correspondence is known: id query parameters and JSON body
 * fields of a known kind carry the replayed id (`room_id=160` -> `room_id=1`, `"revision_id":"ab12"` -> the
 * replayed revision), dates are shifted when asked. Every other byte stays as recorded (no re-encoding).
 */
export function rewriteQuery(pathAndQuery: string, correspondence: Correspondence, noun: string | undefined): string {
  const question = pathAndQuery.indexOf('?');
  if (question < 0) return pathAndQuery;
  return `${pathAndQuery.slice(0, question + 1)}${rewriteForm(pathAndQuery.slice(question + 1), correspondence, noun)}`;
}

function rewriteForm(form: string, correspondence: Correspondence, noun: string | undefined): string {
  return form
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = decode(pair.slice(0, equals));
      if (name === 'api_key') return pair;
      const value = decode(pair.slice(equals + 1));
      const next = correspondence.requestValue(idKind(name, undefined, false, noun), value);
      return next === value ? pair : `${pair.slice(0, equals + 1)}${encodeURIComponent(String(next))}`;
    })
    .join('&');
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

export function rewriteBody(
  body: Uint8Array | null,
  contentType: string | undefined,
  correspondence: Correspondence,
  noun: string | undefined,
): Uint8Array | null {
  if (!body || body.length === 0) return body;
  const text = utf8.decode(body);
  const scalars = jsonScalars(text);
  if (!scalars) {
    if (!contentType?.includes('application/x-www-form-urlencoded')) return body;
    const form = rewriteForm(text, correspondence, noun);
    return form === text ? body : new TextEncoder().encode(form);
  }
  let out = '';
  let from = 0;
  for (const { path, start, end } of scalars) {
    const { key, parent, element } = lastKeys(path);
    if (key === undefined) continue;
    const token = text.slice(start, end);
    const value = JSON.parse(token) as Scalar;
    const next = correspondence.requestValue(idKind(key, parent, element, noun), value);
    if (next === value) continue;
    // An explicit `--map room_id:160=1` gives text: a number stays a number.
    const written =
      typeof value === 'number' && typeof next === 'string' && /^-?\d+(\.\d+)?$/.test(next)
        ? next
        : JSON.stringify(next);
    out += `${text.slice(from, start)}${written}`;
    from = end;
  }
  return from === 0 ? body : new TextEncoder().encode(out + text.slice(from));
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
