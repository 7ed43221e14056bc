import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { EMAIL_EVENTS } from './events.ts';

export const listAutoEmailEvents = defineRoute({
  name: 'qc.auto_email_templates.events',
  method: 'GET',
  path: '/auto_email_templates/events',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'auto_email_template',
  summary: 'Events a template can follow, with the placeholders each fills',
  tags: ['auto-email templates'],
  response: okSchema(
    t.Object({
      events: t.Array(t.Object({ event: t.String(), description: t.String(), placeholders: t.Array(t.String()) })),
    }),
  ),
  handle: () =>
    ok({
      events: Object.entries(EMAIL_EVENTS).map(([event, e]) => ({
        event,
        description: e.description,
        placeholders: [...e.placeholders],
      })),
    }),
});
