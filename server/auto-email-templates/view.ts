import type { TemplateRow } from './templates.ts';

export function templateView(r: TemplateRow) {
  return {
    id: r.external_id,
    event: r.event,
    title: r.title,
    is_active: r.is_active,
    property_ids: r.property_external_ids,
    pem_system_set: r.pem_system_set,
    to: r.recipient,
    subject: r.subject,
    body_html: r.body_html,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
