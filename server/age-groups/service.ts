import type { Db } from '../core/db/db.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { lockStructure } from '../rate-plans/service.ts';
import { type AgeGroupsPatch, changesOf, mergeAgeGroups } from './merge.ts';
import { type AgeGroup, type AgeGroupSet, DEFAULT_GROUPS } from './model.ts';

/** The property's brackets, always all three in I, C, T order (defaults for any the row lacks). */
export async function readAgeGroups(db: Db, propertyId: number): Promise<AgeGroupSet> {
  const [row] = await db.sql<{ is_active: boolean; groups: Partial<AgeGroup>[] }>`
    select is_active, groups from age_groups where property_id = ${propertyId}`;
  if (!row) return DEFAULT_GROUPS;
  const stored = Array.isArray(row.groups) ? row.groups : [];
  return {
    is_active: row.is_active,
    groups: DEFAULT_GROUPS.groups.map((d) => {
      const s = stored.find((g) => g.code === d.code);
      return { code: d.code, from_age: s?.from_age ?? d.from_age, to_age: s?.to_age ?? d.to_age };
    }),
  };
}

export interface AgeGroupsAnswer extends AgeGroupSet {
  preview: { is_active_changed: boolean; changed_groups: AgeGroup['code'][]; reprice_note: string };
}

/**
 * PUT age-groups: merges under the property's structure lock (rate plan creation reads the brackets for
 * its vocabularies under the same lock), writes and records `age_groups.updated` only when something
 * changed, and says what changes for prices.
 */
export async function putAgeGroups(
  tx: Db,
  property: PropertyRow,
  patch: AgeGroupsPatch,
  now: Date,
): Promise<AgeGroupsAnswer> {
  await lockStructure(tx, property.id);
  const before = await readAgeGroups(tx, property.id);
  const after = mergeAgeGroups(before, patch);
  const changes = changesOf(before, after);
  const changed = changes.is_active_changed || changes.changed_groups.length > 0;
  if (changed) {
    await tx.sql`
      insert into age_groups (property_id, is_active, groups, updated_at)
      values (${property.id}, ${after.is_active}, ${after.groups}, ${now})
      on conflict (property_id) do update set is_active = excluded.is_active, groups = excluded.groups,
        updated_at = excluded.updated_at`;
    await recordEvent(tx, {
      type: 'age_groups.updated',
      customerId: property.customer_id,
      propertyId: property.id,
      data: { property_id: property.external_id, is_active: after.is_active, changed_groups: changes.changed_groups },
    });
  }
  return { ...after, preview: { ...changes, reprice_note: repriceNote(changed) } };
}

function repriceNote(changed: boolean): string {
  if (!changed) return 'Nothing changed: quotes and occupancy vocabularies stay as they are.';
  return 'The new brackets apply from the next quote (child codes in occupancy vocabularies, legacy offers, partner booking totals); bookings already made keep their prices.';
}
