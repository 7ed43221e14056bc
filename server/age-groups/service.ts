import { readAgeBrackets } from '../../pricing/age-brackets.ts';
import { configEvent } from '../config-surfaces/config-event.ts';
import type { Db } from '../core/db/db.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { refreshVocabularies } from '../rate-plans/refresh-vocabularies.ts';
import { lockStructure } from '../rate-plans/service.ts';
import { type AgeGroupsPatch, changesOf, mergeAgeGroups } from './merge.ts';
import type { AgeGroup, AgeGroupSet } from './model.ts';

/** The property's brackets in I, C, T order, through the one reader quotes and vocabularies use. */
export async function readAgeGroups(db: Db, propertyId: number): Promise<AgeGroupSet> {
  const ages = await readAgeBrackets(db, propertyId);
  return { is_active: ages.isActive, groups: ages.brackets };
}

export interface AgeGroupsAnswer extends AgeGroupSet {
  preview: { is_active_changed: boolean; changed_groups: AgeGroup['code'][]; reprice_note: string };
}

/**
 * PUT age-groups: merges under the property's structure lock (rate plan creation reads the brackets for
 * its vocabularies under the same lock); when something changed, writes, re-derives the stored
 * vocabularies and records `age_groups.updated`; says what changes for prices.
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
  let pairs = 0;
  if (changed) {
    await tx.sql`
      insert into age_groups (property_id, is_active, groups, updated_at)
      values (${property.id}, ${after.is_active}, ${after.groups}, ${now})
      on conflict (property_id) do update set is_active = excluded.is_active, groups = excluded.groups,
        updated_at = excluded.updated_at`;
    pairs = await refreshVocabularies(tx, property.id);
    await recordEvent(
      tx,
      configEvent(property, {
        type: 'age_groups.updated',
        is_active: after.is_active,
        changed_groups: changes.changed_groups,
      }),
    );
  }
  return { ...after, preview: { ...changes, reprice_note: repriceNote(changed, pairs) } };
}

function repriceNote(changed: boolean, pairs: number): string {
  if (!changed) return 'Nothing changed: quotes and occupancy vocabularies stay as they are.';
  return `The new brackets apply from the next quote: ${pairs} rate plan x room type vocabularies were re-derived (child codes and their ages), legacy offers price children by them; bookings already made keep their prices.`;
}
