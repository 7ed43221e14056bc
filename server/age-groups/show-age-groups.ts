import { t } from 'elysia';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { AgeGroupsSchema } from './model.ts';
import { readAgeGroups } from './service.ts';

export const showAgeGroups = defineRoute({
  ...configOperation('qc.age_groups.show', 'GET', '/properties/:property/age-groups', 'age_group', 'Age brackets'),
  description:
    'The brackets behind the child occupancy codes, always I (infant), C (child), T (teen) in that order. A property that never set them has I 0-2, C 3-11, T 12-17. While `is_active` is false the property sells no child codes: every guest is priced as an adult.',
  params: t.Object({ property: t.String() }),
  response: okSchema(AgeGroupsSchema),
  handle: inProperty(async ({ deps }, property) => {
    return ok(await readAgeGroups(deps.db, property.id));
  }),
});
