import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { defineRoute } from '../core/routes/route.ts';
import { ListQuery } from '../properties/model.ts';
import { TemplateSchema } from './model.ts';
import { listTemplates } from './templates.ts';
import { templateView } from './view.ts';

export const listAutoEmailTemplates = defineRoute({
  name: 'qc.auto_email_templates.list',
  method: 'GET',
  path: '/auto_email_templates',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'auto_email_template',
  summary: "The account's auto-email templates",
  tags: ['auto-email templates'],
  description:
    'Owner-scoped (no property in the URL). Lists the templates whose every property is granted to this credential.',
  query: ListQuery,
  response: okSchema(t.Object({ auto_email_templates: t.Array(TemplateSchema), meta: MetaSchema })),
  async handle({ deps, principal, query }) {
    const { page, perPage } = pageOf(query);
    const { rows, total } = await listTemplates(deps.db, principal, page, perPage);
    return ok({ auto_email_templates: rows.map(templateView), meta: pageMeta(total, page, perPage) });
  },
});
