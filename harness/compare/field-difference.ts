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
  /** What kind of difference, ranked by what it breaks for a PMS (DIFFERENCE_CLASSES). */
  class?: DifferenceClass;
  /** For `representation`: number format, escaping, key order, whitespace. */
  detail?: string;
  /** For an id contradicting the correspondence: the value it maps to. */
  expected?: unknown;
  /** Why this difference is not held against the replayed answer, when it is not. */
  allowed?: 'noise' | 'ignored';
  /** For an `ignored` difference: the rule that forgave it, as `METHOD PATH FIELD` (the first that covers it). */
  rule?: string;
}

/**
 * Difference classes, most severe first: no answer at all; the HTTP status; the legacy message (spec 7.4, byte
 * for byte: a PMS matches on it); a field missing or added; a value changed (ids contradicting the learnt
 * correspondence included); the representation only (number format, escaping, key order, white space: the same
 * JSON, other bytes). Representation differences are reported, never hidden, but rank below behaviour.
 */
export const DIFFERENCE_CLASSES = ['failed', 'status', 'message', 'field', 'value', 'representation'] as const;
export type DifferenceClass = (typeof DIFFERENCE_CLASSES)[number];

/** Severity of a class: 6 for `failed` down to 1 for `representation`. */
export function severityOf(cls: DifferenceClass): number {
  return DIFFERENCE_CLASSES.length - DIFFERENCE_CLASSES.indexOf(cls);
}

/** The most severe class among fields (undefined when none is classed). */
export function worstClass(fields: readonly Pick<FieldDifference, 'class'>[]): DifferenceClass | undefined {
  let worst: DifferenceClass | undefined;
  for (const field of fields)
    if (field.class && (!worst || severityOf(field.class) > severityOf(worst))) worst = field.class;
  return worst;
}

export type Verdict = 'identical' | 'noise_only' | 'different';

export function verdictOf(fields: readonly FieldDifference[]): Verdict {
  if (fields.length === 0) return 'identical';
  return fields.every((field) => field.allowed) ? 'noise_only' : 'different';
}
