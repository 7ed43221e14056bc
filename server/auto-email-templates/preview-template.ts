import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { TemplateParams } from './model.ts';
import { pathTemplate } from './path-template.ts';
import { previewTemplate } from './preview.ts';

export const previewAutoEmailTemplate = defineRoute({
  name: 'qc.auto_email_templates.preview',
  method: 'GET',
  path: '/auto_email_templates/:template/preview',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'auto_email_template',
  summary: 'Render a template for a sample booking',
  tags: ['auto-email templates'],
  description: [
    'Fills every placeholder from a sample booking at the template’s first property (`sample` shows the values).',
    '`locale` picks the language; a locale the template lacks falls back to English, then to its first. Values',
    'are HTML-escaped in `body_html`; the template markup itself is returned as stored, as a JSON string (never',
    'served as HTML; the answer carries `X-Content-Type-Options: nosniff`): show it in an `<iframe sandbox>`',
    'without `allow-scripts`, or sanitise it. Nothing is sent.',
  ].join(' '),
  params: TemplateParams,
  query: t.Object({ locale: t.Optional(t.String({ pattern: '^[a-z]{2}-[A-Z]{2}$' })) }),
  response: okSchema(
    t.Object({
      locale: t.String(),
      to: t.String(),
      subject: t.String(),
      body_html: t.String(),
      sample: t.Record(t.String(), t.String()),
    }),
  ),
  pathRecord: pathTemplate,
  async handle({ deps, query }, template) {
    return ok(await previewTemplate(deps.db, template, query.locale));
  },
});
