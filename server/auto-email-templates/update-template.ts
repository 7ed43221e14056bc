import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyNotGrantedFields, TemplateParams, TemplateSchema, UpdateTemplateBody } from './model.ts';
import { pathTemplate } from './path-template.ts';
import { updateTemplate } from './templates.ts';
import { templateView } from './view.ts';

export const updateAutoEmailTemplate = defineRoute({
  name: 'qc.auto_email_templates.update',
  method: 'PATCH',
  path: '/auto_email_templates/:template',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'auto_email_template',
  summary: 'Change an auto-email template (partial)',
  tags: ['auto-email templates'],
  description:
    'Only the fields present change (`subject` and `body_html` replace their whole map). Placeholders are checked against the event the template will have.',
  params: TemplateParams,
  body: UpdateTemplateBody,
  response: okSchema(TemplateSchema),
  errors: ['errors.qc.property_id_not_granted_to_client'],
  errorFields: PropertyNotGrantedFields,
  pathRecord: pathTemplate,
  async handle({ deps, principal, params, body }) {
    return ok(templateView(await deps.db.tx((tx) => updateTemplate(tx, principal, params.template, body))));
  },
});
