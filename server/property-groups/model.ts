import { t } from 'elysia';
import { MetaSchema, okSchema } from '../core/http/envelope.ts';

export const GroupParams = t.Object({ group: t.String({ description: 'the group id' }) });

const PropertyRefs = t.Array(t.String({ minLength: 1 }), {
  maxItems: 1000,
  uniqueItems: true,
  description:
    "external ids or partner codes of the account's properties: exactly these are the group's members (at most 1000: properties to pause together beyond that go in several groups)",
});

export const CreateGroupBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 255 }),
  property_ids: t.Optional(PropertyRefs),
});

export const UpdateGroupBody = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
  paused: t.Optional(
    t.Boolean({ description: "true: the group's properties drop out of every credential's allow-list at once" }),
  ),
  property_ids: t.Optional(PropertyRefs),
});

export const PropertyGroupSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  name: t.String(),
  paused: t.Boolean(),
  property_ids: t.Array(t.String({ format: 'uuid' })),
  created_at: t.String({ format: 'date-time' }),
});

export const GroupAnswer = okSchema(PropertyGroupSchema);
export const GroupListAnswer = okSchema(t.Object({ property_groups: t.Array(PropertyGroupSchema), meta: MetaSchema }));
