import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { TemplateParams, TemplateSchema } from './model.ts';
import { findTemplate } from './templates.ts';
import { templateView } from './view.ts';

export const showAutoEmailTemplate = defineRoute({
  name: 'qc.auto_email_templates.show',
  method: 'GET',
  path: '/auto_email_templates/:template',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'auto_email_template',
  summary: 'One auto-email template',
  tags: ['auto-email templates'],
  params: TemplateParams,
  response: okSchema(TemplateSchema),
  async handle({ deps, principal, params }) {
    return ok(templateView(await findTemplate(deps.db, principal, params.template)));
  },
});
