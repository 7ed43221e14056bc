import { updateOwned } from '../config-surfaces/owned-records.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { ApiError, fieldError, notFound, validationError } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import { isUuid, resolveProperty } from '../core/resolve.ts';
import type { EmailEvent } from './events.ts';
import { placeholderErrors } from './placeholders.ts';

export interface TemplateRow {
  id: number;
  external_id: string;
  customer_id: number;
  event: EmailEvent;
  title: string;
  is_active: boolean;
  property_ids: number[];
  property_external_ids: string[];
  pem_system_set: string[];
  recipient: string;
  subject: Record<string, string>;
  body_html: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export interface TemplateInput {
  event?: EmailEvent;
  title?: string;
  is_active?: boolean;
  property_ids?: string[];
  pem_system_set?: string[];
  to?: string;
  subject?: Record<string, string>;
  body_html?: Record<string, string>;
}

const SELECT = `select t.*, array(select p.external_id::text from unnest(t.property_ids) with ordinality as u(id, n)
    join properties p on p.id = u.id order by u.n) as property_external_ids
  from auto_email_templates t`;

/**
 * Templates are the customer's (no property in the URL). A credential sees a template only when every
 * property it targets is granted to it: a template for properties outside the grant is not found, and so is
 * an id that is no UUID (PostgreSQL would refuse the cast).
 */
export async function findTemplate(db: Db, principal: Principal, externalId: string, lock = false) {
  if (!isUuid(externalId)) throw notFound();
  const [row] = await db.query<TemplateRow>(
    `${SELECT} where t.external_id = $1::uuid and t.customer_id = $2 and t.property_ids <@ $3::bigint[] ${lock ? 'for update' : ''}`,
    [externalId, principal.customerId, [...principal.propertyIds]],
  );
  if (!row) throw notFound();
  return row;
}

export async function listTemplates(db: Db, principal: Principal, page: number, perPage: number) {
  const where = 't.customer_id = $1 and t.property_ids <@ $2::bigint[]';
  const params = [principal.customerId, [...principal.propertyIds]];
  const rows = await db.query<TemplateRow>(`${SELECT} where ${where} order by t.id limit $3 offset $4`, [
    ...params,
    perPage,
    (page - 1) * perPage,
  ]);
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from auto_email_templates t where ${where}`,
    params,
  );
  return { rows, total: count?.n ?? 0 };
}

/**
 * Property references (external ids or partner codes, through the one resolver) turned into internal ids;
 * one that is not granted to this credential, or not there at all, is 422
 * errors.qc.property_id_not_granted_to_client naming it.
 */
async function grantedPropertyIds(db: Db, principal: Principal, segments: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const segment of segments) {
    try {
      ids.push((await resolveProperty(db, principal, segment)).id);
    } catch (err) {
      if (err instanceof ApiError && err.key === 'errors.not_found') {
        throw new ApiError('errors.qc.property_id_not_granted_to_client', { property_id: segment });
      }
      throw err;
    }
  }
  // The schema refuses a reference repeated as written (uniqueItems); one property named by its external id and
  // by its partner code is the same repeat, which would be stored and answered twice.
  if (ids.some((id, i) => ids.indexOf(id) !== i)) throw fieldError('auto_email_template', 'property_ids', 'unique');
  return ids;
}

function checkPlaceholders(event: EmailEvent, input: TemplateInput) {
  const errors = placeholderErrors(event, { subject: input.subject, body_html: input.body_html, to: input.to });
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

export async function createTemplate(
  tx: Db,
  principal: Principal,
  input: Required<Omit<TemplateInput, 'is_active' | 'pem_system_set'>> & TemplateInput,
) {
  checkPlaceholders(input.event, input);
  const propertyIds = await grantedPropertyIds(tx, principal, input.property_ids);
  const [row] = await tx.sql<{ external_id: string }>`
    insert into auto_email_templates (customer_id, event, title, is_active, property_ids, pem_system_set, recipient, subject, body_html)
    values (${principal.customerId}, ${input.event}, ${input.title}, ${input.is_active ?? true}, ${propertyIds}::bigint[],
      ${input.pem_system_set ?? []}::text[], ${input.to}, ${input.subject}, ${input.body_html})
    returning external_id`;
  const created = await findTemplate(tx, principal, row?.external_id as string);
  await recordEvent(tx, { type: 'auto_email_template.created', ...templateEvent(created) });
  return created;
}

/**
 * Only the fields present change (a PATCH that changes nothing writes nothing); subject, body and `to` are checked against the (possibly new) event's
 * placeholders as they will be stored, so changing the event alone cannot leave a template with unknown ones.
 */
export async function updateTemplate(tx: Db, principal: Principal, externalId: string, input: TemplateInput) {
  const current = await findTemplate(tx, principal, externalId, true);
  const event = input.event ?? current.event;
  checkPlaceholders(event, {
    subject: input.subject ?? current.subject,
    body_html: input.body_html ?? current.body_html,
    to: input.to ?? current.recipient,
  });
  const propertyIds = input.property_ids
    ? await grantedPropertyIds(tx, principal, input.property_ids)
    : current.property_ids;
  const changed = await updateOwned(
    tx,
    'auto_email_templates',
    current.id,
    {
      event,
      title: input.title ?? current.title,
      is_active: input.is_active ?? current.is_active,
      property_ids: propertyIds,
      pem_system_set: input.pem_system_set ?? current.pem_system_set,
      recipient: input.to ?? current.recipient,
      subject: input.subject ?? current.subject,
      body_html: input.body_html ?? current.body_html,
    },
    undefined,
    { property_ids: 'bigint[]', pem_system_set: 'text[]' },
  );
  // Nothing changed: nothing written, no event (spec 6.3), updated_at kept.
  if (!changed) return current;
  const updated = await findTemplate(tx, principal, externalId);
  await recordEvent(tx, { type: 'auto_email_template.updated', ...templateEvent(updated) });
  return updated;
}

export async function deleteTemplate(tx: Db, principal: Principal, externalId: string) {
  const current = await findTemplate(tx, principal, externalId, true);
  await tx.sql`delete from auto_email_templates where id = ${current.id}`;
  await recordEvent(tx, { type: 'auto_email_template.deleted', ...templateEvent(current) });
  return { id: current.external_id, deleted: true as const };
}

function templateEvent(row: TemplateRow) {
  return {
    customerId: row.customer_id,
    propertyId: null,
    data: { template_id: row.external_id, event: row.event, property_ids: row.property_external_ids },
  };
}
