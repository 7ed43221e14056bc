import { ApiError, type FieldErrors, fieldError } from '../core/http/api-error.ts';
import { type AgeGroup, type AgeGroupSet, DEFAULT_GROUPS, GROUP_CODES, type GroupCode } from './model.ts';

export interface AgeGroupsPatch {
  is_active?: boolean;
  groups?: { code: GroupCode; from_age?: number; to_age?: number }[];
}

/**
 * PUT age-groups as a partial merge (spec 4.7): the fields present replace the stored ones, bracket by
 * bracket; the rest stays. The same PUT twice gives the same brackets. A merged bracket whose from_age
 * exceeds its to_age is 422 `errors.qc.age_group_range_inverted` (the path names the body's bracket)
 * before anything is written. Brackets may overlap: a child's age takes the first bracket in I, C, T
 * order that holds it.
 */
export function mergeAgeGroups(current: AgeGroupSet, patch: AgeGroupsPatch): AgeGroupSet {
  const seen = new Set<GroupCode>();
  const errors: FieldErrors = {};
  const groups = current.groups.map((g) => ({ ...g }));
  const defaults = DEFAULT_GROUPS.groups;
  for (const [i, change] of (patch.groups ?? []).entries()) {
    if (seen.has(change.code)) throw fieldError('age_group', `groups.${i}.code`, 'duplicate');
    seen.add(change.code);
    let group = groups.find((g) => g.code === change.code);
    if (!group) {
      // A bracket the stored set lacks (rows written before every set held all three) starts at its default.
      group = { ...(defaults.find((d) => d.code === change.code) as AgeGroup) };
      groups.push(group);
    }
    group.from_age = change.from_age ?? group.from_age;
    group.to_age = change.to_age ?? group.to_age;
    if (group.from_age > group.to_age) errors[`groups.${i}`] = ['customer.age_group.messages.range_inverted'];
  }
  if (Object.keys(errors).length) throw new ApiError('errors.qc.age_group_range_inverted', { errors });
  const order = (g: AgeGroup) => GROUP_CODES.indexOf(g.code);
  return { is_active: patch.is_active ?? current.is_active, groups: groups.sort((a, b) => order(a) - order(b)) };
}

/** What a merge changed, for the PUT answer's `preview`. */
export function changesOf(before: AgeGroupSet, after: AgeGroupSet) {
  const changed = after.groups.filter((g) => {
    const was = before.groups.find((b) => b.code === g.code);
    return !was || was.from_age !== g.from_age || was.to_age !== g.to_age;
  });
  return { is_active_changed: before.is_active !== after.is_active, changed_groups: changed.map((g) => g.code) };
}
