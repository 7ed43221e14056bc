import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CreateTemplateBody, PropertyNotGrantedFields, TemplateSchema } from './model.ts';
import { createTemplate } from './templates.ts';
import { templateView } from './view.ts';

export const createAutoEmailTemplate = defineRoute({
  name: 'qc.auto_email_templates.create',
  method: 'POST',
  path: '/auto_email_templates',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'auto_email_template',
  summary: 'Create an auto-email template',
  tags: ['auto-email templates'],
  description: [
    'Fields of spec 2.9: `event` (GET /auto_email_templates/events lists them with their placeholders), `title`,',
    '`is_active`, `property_ids` (external ids or partner codes; each must be granted to this credential, else 422',
    '`errors.qc.property_id_not_granted_to_client` naming it; answered as external ids), `pem_system_set` (source',
    'channel codes; empty: all), `to` (addresses or `{guest_email}`), `subject` and `body_html` (locale to text).',
    'A `{placeholder}` the event does not fill is 422 `errors.validation_error` with rule `unknown_placeholder` on',
    '`subject.<locale>` or `body_html.<locale>`.',
  ].join(' '),
  body: CreateTemplateBody,
  status: 201,
  response: okSchema(TemplateSchema),
  errors: ['errors.qc.property_id_not_granted_to_client'],
  errorFields: PropertyNotGrantedFields,
  async handle({ deps, principal, body, request }) {
    const kept = keptCreate(request, deps.clock.now());
    return deps.db.tx(async (tx) => {
      const answer = ok(templateView(await createTemplate(tx, principal, body)));
      await kept.keep(tx, 201, answer);
      return answer;
    });
  },
});
