import { t } from 'elysia';
import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { TemplateParams } from './model.ts';
import { pathTemplate } from './path-template.ts';
import { deleteTemplate } from './templates.ts';

export const deleteAutoEmailTemplate = defineRoute({
  name: 'qc.auto_email_templates.delete',
  method: 'DELETE',
  path: '/auto_email_templates/:template',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'auto_email_template',
  summary: 'Delete an auto-email template',
  tags: ['auto-email templates'],
  params: TemplateParams,
  body: EmptyBody,
  response: okSchema(t.Object({ id: t.String({ format: 'uuid' }), deleted: t.Literal(true) })),
  pathRecord: pathTemplate,
  async handle({ deps, principal, params }) {
    return ok(await deps.db.tx((tx) => deleteTemplate(tx, principal, params.template)));
  },
});
