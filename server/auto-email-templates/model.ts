import { t } from 'elysia';
import { CHANNELS } from '../bookings/channels.ts';
import { LOCALE_PATTERN } from '../core/name-tr.ts';
import { EMAIL_EVENT_NAMES } from './events.ts';

/** Locale tag to text, at least one; any other key is 422 (strict since these texts first shipped; name_tr keeps v1's older leniency). */
const LocaleText = (maxLength: number) =>
  t.Record(t.String({ pattern: LOCALE_PATTERN }), t.String({ minLength: 1, maxLength }), {
    minProperties: 1,
    additionalProperties: false,
  });
const Event = t.Union(
  EMAIL_EVENT_NAMES.map((e) => t.Literal(e)),
  { description: 'see GET /auto_email_templates/events' },
);
const PropertyIds = t.Array(t.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 500,
  uniqueItems: true,
  description: 'external property ids or partner codes, each granted to this credential and each property once',
});
const PemSystemSet = t.Array(t.Union(CHANNELS.map((c) => t.Literal(c))), {
  uniqueItems: true,
  description: 'source channels whose bookings trigger the e-mail; empty: every channel',
});
const To = t.String({
  minLength: 1,
  maxLength: 1000,
  description: 'comma-separated addresses, or `{guest_email}`',
});

export const TemplateParams = t.Object({ template: t.String({ format: 'uuid' }) });

export const CreateTemplateBody = t.Object({
  event: Event,
  title: t.String({ minLength: 1, maxLength: 255 }),
  is_active: t.Optional(t.Boolean()),
  property_ids: PropertyIds,
  pem_system_set: t.Optional(PemSystemSet),
  to: To,
  subject: LocaleText(500),
  body_html: LocaleText(100_000),
});

export const UpdateTemplateBody = t.Object({
  event: t.Optional(Event),
  title: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
  is_active: t.Optional(t.Boolean()),
  property_ids: t.Optional(PropertyIds),
  pem_system_set: t.Optional(PemSystemSet),
  to: t.Optional(To),
  subject: t.Optional(LocaleText(500)),
  body_html: t.Optional(LocaleText(100_000)),
});

/** Beside 422 `errors.qc.property_id_not_granted_to_client`: the reference refused, as sent (templates.ts). */
export const PropertyNotGrantedFields = {
  422: {
    property_id: t.String({
      description: 'with errors.qc.property_id_not_granted_to_client: the property reference refused, as sent',
    }),
  },
};

export const TemplateSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  event: t.String(),
  title: t.String(),
  is_active: t.Boolean(),
  property_ids: t.Array(t.String({ format: 'uuid' })),
  pem_system_set: t.Array(t.String()),
  to: t.String(),
  subject: t.Record(t.String(), t.String()),
  body_html: t.Record(t.String(), t.String()),
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
});
