import { readFileSync } from 'node:fs';

/**
 * Which legacy `api_key` the port knows for each recorded one. Given as `RECORDED=REPLAYED` pairs or as files:
 * a JSON object `{"recorded": "replayed"}`, or lines `recorded=replayed` (`#` comments).
 */
export class KeyMapError extends Error {}

export function parseKeyMap(specs: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const spec of specs) {
    for (const [from, to] of pairsOf(spec)) map.set(from, to);
  }
  return map;
}

function pairsOf(spec: string): Array<[string, string]> {
  let text: string;
  try {
    text = readFileSync(spec, 'utf8');
  } catch {
    const equals = spec.indexOf('=');
    if (equals <= 0) throw new KeyMapError(`--key-map ${spec}: neither a readable file nor RECORDED=REPLAYED`);
    return [[spec.slice(0, equals), spec.slice(equals + 1)]];
  }
  if (text.trimStart().startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new KeyMapError(`${spec}: ${(err as Error).message}`);
    }
    const entries = Object.entries(json as Record<string, unknown>);
    const bad = entries.find(([, value]) => typeof value !== 'string');
    if (bad) throw new KeyMapError(`${spec}: the key ${JSON.stringify(bad[0])} maps to a non-string`);
    return entries as Array<[string, string]>;
  }
  return text.split(/\r?\n/).flatMap((raw, i): Array<[string, string]> => {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) return [];
    const equals = line.indexOf('=');
    if (equals <= 0) throw new KeyMapError(`${spec}:${i + 1}: expected recorded=replayed`);
    return [[line.slice(0, equals).trim(), line.slice(equals + 1).trim()]];
  });
}

/**
 * The path and query with every `api_key` value the map knows rewritten; every other byte of the query stays
 * as recorded (no re-encoding, so the port sees what the PMS sent).
 */
export function rewriteApiKey(pathAndQuery: string, keyMap: ReadonlyMap<string, string>): string {
  const question = pathAndQuery.indexOf('?');
  if (question < 0 || keyMap.size === 0) return pathAndQuery;
  const query = pathAndQuery
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0 || pair.slice(0, equals) !== 'api_key') return pair;
      const value = decodeQueryValue(pair.slice(equals + 1));
      const mapped = keyMap.get(value);
      return mapped === undefined ? pair : `api_key=${encodeURIComponent(mapped)}`;
    })
    .join('&');
  return `${pathAndQuery.slice(0, question + 1)}${query}`;
}

function decodeQueryValue(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
