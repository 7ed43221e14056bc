import { t } from 'elysia';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { AgeGroupsAnswerSchema, AgeGroupsBody } from './model.ts';
import { putAgeGroups } from './service.ts';

export const updateAgeGroups = defineRoute({
  ...configOperation(
    'qc.age_groups.update',
    'PUT',
    '/properties/:property/age-groups',
    'age_group',
    'Set age brackets',
  ),
  description:
    'A partial, idempotent merge: only `is_active` and the bracket fields present change (brackets named by `code`). A merged bracket with from_age > to_age is 422 `errors.qc.age_group_range_inverted` (its body path in `errors`) and nothing is written. Brackets may overlap: an age takes the first bracket in I, C, T order that holds it; an age in none is priced as an adult. The answer previews what changed; new brackets apply from the next quote and saved bookings keep their prices. Event `age_groups.updated` when something changed.',
  params: t.Object({ property: t.String() }),
  body: AgeGroupsBody,
  response: okSchema(AgeGroupsAnswerSchema),
  errors: ['errors.qc.age_group_range_inverted'],
  handle: inProperty(async ({ deps, body }, property) => {
    const now = deps.clock.now();
    return ok(await deps.db.tx((tx) => putAgeGroups(tx, property, body, now)));
  }),
});
