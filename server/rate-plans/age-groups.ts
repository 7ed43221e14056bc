import { readAgeBrackets } from '../../pricing/age-brackets.ts';
import type { Db } from '../core/db/db.ts';
import type { AgeGroups } from './vocabulary.ts';

/** The property's age brackets as the vocabulary reads them: which child letters exist and their ages. */
export async function ageGroupsOf(db: Db, propertyId: number): Promise<AgeGroups> {
  const ages = await readAgeBrackets(db, propertyId);
  return {
    isActive: ages.isActive,
    letters: ages.brackets.map((b) => b.code),
    ranges: Object.fromEntries(ages.brackets.map((b) => [b.code, { from_age: b.from_age, to_age: b.to_age }])),
  };
}
