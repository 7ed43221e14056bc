/**
 * Which recorded ids are which replayed ids. A corpus recorded from one installation and replayed on another
 * (the migration's data copy, a fresh demo) names the same rooms, rates and bookings by other numbers: room 160
 * recorded is room 1 replayed. The correspondence is learnt from the answers themselves, field by field: an id
 * field (`id`, `*_id`, `*_ids[*]`, `bm_code`, `booking_modules[*].url_key`) holding 160 in a recorded answer and 1 at the same place of the
 * replayed one says 160 -> 1 for that kind of id (`room`, from `room_id`, `room_ids`, or `rooms[*].id`). Once
 * learnt it is applied both ways: later requests ask for the replayed id (the replay rewrites query parameters
 * and JSON body fields of that kind), and the comparison accepts 1 where 160 was recorded. A value seen mapped two
 * ways (160 -> 1 here, 160 -> 2 there, or 160 and 161 both -> 1) is a difference of its own. Explicit pairs
 * (`--map room_id:160=1`) are set before the run and never relearnt.
 *
 * Dates move the same way when the state was created relative to "today" (a demo, a data copy moved forward):
 * `dateShiftDays` makes every `YYYY-MM-DD` value of a request N days later, and a replayed date N days after the
 * recorded one corresponds to it.
 */
export type Scalar = string | number | boolean | null;

export interface MappingEntry {
  kind: string;
  recorded: Scalar;
  replayed: Scalar;
  source: 'learnt' | 'explicit';
  /** Fields of answers where the pair was seen (or, explicit, applied). */
  seen: number;
  /** Exchange where it was learnt (0-based), for a learnt pair. */
  learnt_at?: number;
}

export interface MappingConflict {
  kind: string;
  recorded: Scalar;
  replayed: Scalar;
  /** What the correspondence said instead: the replayed value the recorded one maps to, or the recorded value already mapped to this replayed one. */
  expected: Scalar;
  index: number;
  path: string;
}

export interface CorrespondenceSummary {
  date_shift_days: number;
  mappings: MappingEntry[];
  conflicts: MappingConflict[];
}

/** The outcome of one id field: equal, equal through the correspondence, or contradicting it. */
export type Judgement = { mapped: boolean } | { conflict: Scalar };

export class CorrespondenceError extends Error {}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CONFLICTS_KEPT = 1000;

export class Correspondence {
  readonly #forward = new Map<string, Map<string, MappingEntry>>();
  readonly #backward = new Map<string, Map<string, MappingEntry>>();
  readonly #conflicts: MappingConflict[] = [];
  #conflictCount = 0;

  constructor(readonly dateShiftDays = 0) {}

  /** `room_id:160=1`, `room:160=1`, `bm_code:abc=xyz`: an explicit pair, overriding anything learnt. */
  static parsePair(spec: string): { kind: string; recorded: string; replayed: string } {
    const match = spec.match(/^([A-Za-z_][\w]*):([^=]*)=(.*)$/);
    if (!match) throw new CorrespondenceError(`--map ${spec}: expected FIELD:RECORDED=REPLAYED (room_id:160=1)`);
    const [, field, recorded, replayed] = match as unknown as [string, string, string, string];
    const kind = idKind(field, undefined, false) ?? field;
    return { kind, recorded, replayed };
  }

  setExplicit(kind: string, recorded: Scalar, replayed: Scalar): void {
    this.#put({ kind, recorded, replayed, source: 'explicit', seen: 0 });
  }

  /** The replayed value for a recorded one of this kind, if known. */
  map(kind: string, recorded: Scalar): Scalar | undefined {
    return this.#forward.get(kind)?.get(keyOf(recorded))?.replayed;
  }

  /**
   * Judges an id field seen in a recorded answer and at the same place of the replayed one, learning the pair
   * when neither value is known yet.
   */
  judge(kind: string, recorded: Scalar, replayed: Scalar, at: { index: number; path: string }): Judgement {
    const forward = this.#forward.get(kind)?.get(keyOf(recorded));
    const backward = this.#backward.get(kind)?.get(keyOf(replayed));
    if (forward && keyOf(forward.replayed) === keyOf(replayed)) {
      forward.seen++;
      return { mapped: recorded !== replayed };
    }
    if (forward) return this.#conflict(kind, recorded, replayed, forward.replayed, at);
    if (backward) return this.#conflict(kind, recorded, replayed, backward.recorded, at);
    this.#put({ kind, recorded, replayed, source: 'learnt', seen: 1, learnt_at: at.index });
    return { mapped: recorded !== replayed };
  }

  /** A date value: the replayed one must be the recorded one moved by the shift. */
  judgeDate(recorded: string, replayed: string): boolean {
    return this.dateShiftDays !== 0 && shiftDate(recorded, this.dateShiftDays) === replayed;
  }

  /** A request value as the replay sends it: mapped when its kind has it, dates shifted. */
  requestValue(kind: string | undefined, recorded: Scalar): Scalar {
    if (kind !== undefined) {
      const entry = this.#forward.get(kind)?.get(keyOf(recorded));
      if (entry) {
        if (entry.source === 'explicit') entry.seen++;
        return entry.replayed;
      }
    }
    if (this.dateShiftDays && typeof recorded === 'string' && DATE.test(recorded))
      return shiftDate(recorded, this.dateShiftDays);
    return recorded;
  }

  get conflictCount(): number {
    return this.#conflictCount;
  }

  summary(): CorrespondenceSummary {
    const mappings = [...this.#forward.values()]
      .flatMap((entries) => [...entries.values()])
      .filter((entry) => entry.source === 'explicit' || entry.recorded !== entry.replayed)
      .sort((a, b) => a.kind.localeCompare(b.kind) || String(a.recorded).localeCompare(String(b.recorded)));
    return { date_shift_days: this.dateShiftDays, mappings, conflicts: [...this.#conflicts] };
  }

  #put(entry: MappingEntry): void {
    const forward = this.#forward.get(entry.kind) ?? new Map<string, MappingEntry>();
    const backward = this.#backward.get(entry.kind) ?? new Map<string, MappingEntry>();
    forward.set(keyOf(entry.recorded), entry);
    backward.set(keyOf(entry.replayed), entry);
    this.#forward.set(entry.kind, forward);
    this.#backward.set(entry.kind, backward);
  }

  #conflict(
    kind: string,
    recorded: Scalar,
    replayed: Scalar,
    expected: Scalar,
    at: { index: number; path: string },
  ): Judgement {
    this.#conflictCount++;
    if (this.#conflicts.length < CONFLICTS_KEPT) this.#conflicts.push({ kind, recorded, replayed, expected, ...at });
    return { conflict: expected };
  }
}

/** Ids compare by their text: the query's `160` and the body's `160` are one room. */
function keyOf(value: Scalar): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function shiftDate(date: string, days: number): string {
  const at = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(at)) return date;
  return new Date(at + days * 86_400_000).toISOString().slice(0, 10);
}

export function isDate(value: unknown): value is string {
  return typeof value === 'string' && DATE.test(value);
}

/**
 * The kind of id a field holds, or undefined when it holds none: `room_id` and `room_ids[*]` -> `room`,
 * `id` under `rooms[*]` -> `room`, `bm_code` -> `bm_code`. A bare `id` directly under `data` takes its kind from
 * the endpoint (`getRoomsDetails` -> `room`), given as `fallback`.
 */
export function idKind(
  key: string,
  parent: string | undefined,
  element: boolean,
  fallback?: string,
): string | undefined {
  const plural = key.match(/^(.+)_ids$/);
  if (plural) return element ? (plural[1] as string) : undefined;
  if (element) return undefined;
  const single = key.match(/^(.+)_id$/);
  if (single) return single[1] as string;
  if (key === 'bm_code') return key;
  // getPropertySettings lists booking buttons as `booking_modules[*].url_key`: the bm_code getBookingOffers takes.
  if (key === 'url_key' && parent === 'booking_modules') return 'bm_code';
  if (key !== 'id') return undefined;
  if (!parent || parent === 'data') return fallback ?? 'id';
  return singular(parent);
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The noun an endpoint's answers are about, for bare ids under `data`: `/x/getRoomsDetails` -> `room`. */
export function endpointNoun(path: string): string | undefined {
  const method = path.slice(path.lastIndexOf('/') + 1);
  const noun = method.match(/^get([A-Z][a-z]+)/)?.[1];
  return noun ? singular(noun.toLowerCase()) : undefined;
}
