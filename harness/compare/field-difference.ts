/**
 * One way a replayed answer differs from the recorded one. `path` names the field: `status`,
 * `headers.<lower-case name>`, a JSON path into the body (`$.data[0].revision_id`), or `body` for bytes that differ
 * outside any JSON field (key order, escaping, number format, a body that is not JSON). For `body`, `offset` is
 * the byte position in the recorded body where the first differing JSON token starts (for a body that is not
 * JSON: the first differing byte), and the values are the text around it on each side.
 * A value is left out (undefined) where the field is absent on that side.
 */
export interface FieldDifference {
  path: string;
  recorded?: unknown;
  replayed?: unknown;
  offset?: number;
  /** For `body`: the same position in the replayed body. */
  replayed_offset?: number;
  /** Why this difference is not held against the replayed answer, when it is not. */
  allowed?: 'noise' | 'ignored';
}

export type Verdict = 'identical' | 'noise_only' | 'different';

export function verdictOf(fields: readonly FieldDifference[]): Verdict {
  if (fields.length === 0) return 'identical';
  return fields.every((field) => field.allowed) ? 'noise_only' : 'different';
}
