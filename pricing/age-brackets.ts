import type { Db } from '../server/core/db/db.ts';

/**
 * A property's age brackets (spec 2.9, `age_groups`), the one reader every quote and vocabulary uses: the
 * rate plan vocabularies (which child codes exist and the ages each covers), legacy offers (which bracket a
 * child's age prices as) and the age-groups routes. A property without a row has the defaults.
 */
export const BRACKET_CODES = ['I', 'C', 'T'] as const;
export type BracketCode = (typeof BRACKET_CODES)[number];

export interface Bracket {
  code: BracketCode;
  from_age: number;
  to_age: number;
}

export interface AgeBrackets {
  isActive: boolean;
  /** The brackets the property defines, in I, C, T order. */
  brackets: Bracket[];
}

export const DEFAULT_BRACKETS: readonly Bracket[] = [
  { code: 'I', from_age: 0, to_age: 2 },
  { code: 'C', from_age: 3, to_age: 11 },
  { code: 'T', from_age: 12, to_age: 17 },
];

export async function readAgeBrackets(db: Db, propertyId: number): Promise<AgeBrackets> {
  const [row] = await db.sql<{ is_active: boolean; groups: Partial<Bracket>[] }>`
    select is_active, groups from age_groups where property_id = ${propertyId}`;
  if (!row) return { isActive: true, brackets: DEFAULT_BRACKETS.map((b) => ({ ...b })) };
  const stored = Array.isArray(row.groups) ? row.groups : [];
  const brackets = DEFAULT_BRACKETS.flatMap((d) => {
    const s = stored.find((g) => g.code === d.code);
    return s ? [{ code: d.code, from_age: s.from_age ?? d.from_age, to_age: s.to_age ?? d.to_age }] : [];
  });
  return { isActive: row.is_active, brackets };
}

/**
 * The bracket a child's age prices as: the first in I, C, T order that holds it; none (priced as an adult)
 * when the property's brackets are inactive or no bracket holds the age.
 */
export function bracketOf(ages: AgeBrackets, age: number): BracketCode | undefined {
  if (!ages.isActive) return undefined;
  return ages.brackets.find((b) => age >= b.from_age && age <= b.to_age)?.code;
}
