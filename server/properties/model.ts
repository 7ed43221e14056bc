import { t } from 'elysia';
import { pagingQuery } from '../core/http/paging.ts';
import { NameTrSchema } from '../core/name-tr.ts';

export const PropertySchema = t.Object({
  external_property_id: t.String({ format: 'uuid' }),
  id: t.String({ format: 'uuid' }),
  name: t.String(),
  name_tr: t.Record(t.String(), t.String()),
  currency: t.String({ description: 'ISO 4217' }),
  timezone: t.String({ description: 'IANA zone name' }),
  mode: t.Union([t.Literal('shadow'), t.Literal('live')]),
  partner_code: t.Nullable(t.String()),
  partner_name: t.Nullable(t.String()),
});

export const ListQuery = t.Object({
  ...pagingQuery(),
});

export const PropertyParams = t.Object({ property: t.String() });

const PartnerCode = t.String({ minLength: 1, maxLength: 100 });

export const CreatePropertyBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 255 }),
  name_tr: t.Optional(NameTrSchema),
  type_id: t.Integer({ description: 'An id from GET /property-types' }),
  currency: t.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code of a circulating currency, e.g. EUR' }),
  timezone: t.String({
    minLength: 1,
    description: 'IANA zone name as the tz database spells it, e.g. Europe/Lisbon or UTC; not a UTC offset',
  }),
  partner_code: PartnerCode,
});

export const UpdatePropertyBody = t.Object({
  partner_code: t.Optional(t.Nullable(PartnerCode)),
  partner_name: t.Optional(t.Nullable(t.String({ maxLength: 255 }))),
});
