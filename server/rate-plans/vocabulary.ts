import { DEFAULT_BRACKETS } from '../../pricing/age-brackets.ts';

/**
 * Occupancy vocabularies (spec 2.5): the codes a (rate plan x room type) pair can be priced by. A pure
 * function of the room's bed capacity, the plan's sell type and the property's age groups, so the same
 * inputs always give the same codes and a sell-type flip and back restores the original vocabulary.
 * The rule is documented with examples in README.md, section "Occupancy vocabularies".
 */
export const SELL_TYPES = ['per_room', 'per_person', 'per_occupancy'] as const;
export type SellType = (typeof SELL_TYPES)[number];

export const OCCUPANCY_KINDS = ['manual', 'derived', 'fee', 'cost_free', 'inactive'] as const;
export type OccupancyKind = (typeof OCCUPANCY_KINDS)[number];

export const MODIFIERS = [
  'decrease_by_percent',
  'increase_by_percent',
  'decrease_by_amount',
  'increase_by_amount',
] as const;
export type ModifierName = (typeof MODIFIERS)[number];

/** The stored and returned entry form of spec 2.5 (rate_plan_rooms.occupancies holds an array of these). */
export interface OccupancyEntry {
  code: string;
  kind: OccupancyKind;
  persons?: number;
  derived_from?: string;
  modifier?: [ModifierName, number];
  fee?: number;
  /** Child-family codes (T, C, I): the ages the property's bracket covers (spec 2.5). */
  from_age?: number;
  to_age?: number;
}

export interface BedCapacity {
  regularBeds: number;
  extraBeds: number;
  /** How many of the extra beds only children may use (adults get the rest). */
  extraBedsChildrenOnly: number;
}

/** Child-family letters in the order codes are listed: teenager, child, infant. */
export const CHILD_LETTERS = ['T', 'C', 'I'] as const;
export type ChildLetter = (typeof CHILD_LETTERS)[number];

export interface AgeGroups {
  isActive: boolean;
  /** Letters of the brackets the property defines (I, C, T); an inactive set offers none. */
  letters: readonly string[];
  /** Each letter's ages, carried on its codes (absent: the codes carry no range). */
  ranges?: Readonly<Record<string, { from_age: number; to_age: number }>>;
}

/** A property that never set its age groups (pricing/age-brackets.ts holds the default brackets). */
export const DEFAULT_AGE_GROUPS: AgeGroups = {
  isActive: true,
  letters: DEFAULT_BRACKETS.map((b) => b.code),
  ranges: Object.fromEntries(DEFAULT_BRACKETS.map((b) => [b.code, { from_age: b.from_age, to_age: b.to_age }])),
};

export function vocabulary(beds: BedCapacity, sellType: SellType, ageGroups: AgeGroups): OccupancyEntry[] {
  if (sellType === 'per_room') return [{ code: 'ROOM', kind: 'manual', persons: maxPersons(beds) }];
  const children = childLetters(ageGroups);
  const base = adultBase(beds);
  const entries: OccupancyEntry[] = [];
  for (let n = 1; n <= base; n++) entries.push({ code: `A${n}`, kind: 'manual', persons: n });

  const child = (letter: string, code: string): OccupancyEntry => ({
    code,
    kind: 'manual',
    persons: 1,
    ...ageGroups.ranges?.[letter],
  });
  if (sellType === 'per_person') {
    if (adultExtraBeds(beds) > 0) entries.push({ code: 'AEB', kind: 'manual', persons: 1 });
    for (const letter of children) {
      // A child takes a regular bed only beside an adult's; extra beds serve children whenever they exist.
      if (beds.regularBeds >= 2) entries.push(child(letter, `${letter}RB`));
      if (beds.extraBeds > 0) entries.push(child(letter, `${letter}EB`));
      entries.push(child(letter, `${letter}NB`));
    }
    return entries;
  }

  // per_occupancy: a supplement for the person in each additional position beyond the first, up to capacity.
  const adultPositions = base + adultExtraBeds(beds) - 1;
  for (let k = 1; k <= adultPositions; k++) entries.push({ code: `Apn${k}`, kind: 'manual', persons: 1 });
  const positions = maxPersons(beds) - 1;
  for (const letter of children) {
    for (let k = 1; k <= positions; k++) entries.push(child(letter, `${letter}pn${k}`));
  }
  return entries;
}

/** A room always sleeps at least one adult, even one declared without regular beds. */
function adultBase(beds: BedCapacity): number {
  return Math.max(1, beds.regularBeds);
}

function adultExtraBeds(beds: BedCapacity): number {
  return Math.max(0, beds.extraBeds - beds.extraBedsChildrenOnly);
}

function maxPersons(beds: BedCapacity): number {
  return adultBase(beds) + beds.extraBeds;
}

function childLetters(ageGroups: AgeGroups): ChildLetter[] {
  if (!ageGroups.isActive) return [];
  return CHILD_LETTERS.filter((l) => ageGroups.letters.includes(l));
}
