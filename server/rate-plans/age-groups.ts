import type { Db } from '../core/db/db.ts';
import { type AgeGroups, DEFAULT_AGE_GROUPS } from './vocabulary.ts';

/** The property's age brackets as the vocabulary reads them; a property without a row has the defaults. */
export async function ageGroupsOf(db: Db, propertyId: number): Promise<AgeGroups> {
  const [row] = await db.sql<{ is_active: boolean; groups: { code?: string }[] }>`
    select is_active, groups from age_groups where property_id = ${propertyId}`;
  if (!row) return DEFAULT_AGE_GROUPS;
  const letters = (Array.isArray(row.groups) ? row.groups : []).map((g) => g.code).filter((c): c is string => !!c);
  return { isActive: row.is_active, letters };
}
