import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { TemplateParams, TemplateSchema } from './model.ts';
import { pathTemplate } from './path-template.ts';
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
  pathRecord: pathTemplate,
  handle(_, template) {
    return ok(templateView(template));
  },
});
