/**
 * Field paths in the JSONPath dot notation people already read: `$.data[0].revision_id`, `$["odd key"]`.
 * Besides body fields, a comparison names two more kinds of field: `status` and `headers.<lower-case name>`.
 */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function appendSegment(path: string, segment: PathSegment): string {
  if (typeof segment === 'number') return `${path}[${segment}]`;
  return IDENTIFIER.test(segment) ? `${path}.${segment}` : `${path}[${JSON.stringify(segment)}]`;
}

export function formatPath(segments: readonly PathSegment[]): string {
  let path = '$';
  for (const segment of segments) path = appendSegment(path, segment);
  return path;
}

/**
 * The same field in every element of an array: `$.data[3].created_at` becomes `$.data[*].created_at`. Noise is
 * learnt and endpoint summaries are counted on these, so a timestamp seen varying in one booking of a list is
 * noise in every booking of the list.
 */
export function generalizePath(path: string): string {
  return path.replace(/\[\d+\]/g, '[*]');
}

/** Whether `path` is `rule` or lies under it (`$.data[*].client` covers `$.data[*].client.email`). */
export function pathCovers(rule: string, path: string): boolean {
  if (path === rule) return true;
  if (!path.startsWith(rule)) return false;
  const next = path[rule.length];
  return next === '.' || next === '[';
}

const SEGMENT = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;

/**
 * The key a value sits under in a JSON path, the key above that, and whether the value is an array element:
 * `$.data[0].client.email` -> email, client, false; `$.rates[1].room_ids[0]` -> room_ids, rates, true.
 */
export function lastKeys(path: string): { key?: string; parent?: string; element: boolean } {
  const keys: string[] = [];
  let element = false;
  for (const match of path.matchAll(SEGMENT)) {
    if (match[2] !== undefined) element = true;
    else {
      keys.push(match[1] ?? (JSON.parse(match[3] as string) as string));
      element = false;
    }
  }
  return { key: keys.at(-1), parent: keys.at(-2), element };
}
