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
