import type { Db } from '../core/db/db.ts';
import { fieldError } from '../core/http/api-error.ts';
import { nameTrOf } from '../core/name-tr.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { isUuid } from '../core/resolve.ts';

/** Names of the placeholder policies seeded on a property that has none (spec 4.3 rule 3). */
export const PLACEHOLDER_PREFIX = 'API default – ';
export const PLACEHOLDER_PAYMENT_NAME = `${PLACEHOLDER_PREFIX}payment on arrival`;
export const PLACEHOLDER_CANCELLATION_NAME = `${PLACEHOLDER_PREFIX}cancellation policy`;

export interface PolicyChoice {
  /** External id of an existing policy of this property; wins over everything else. */
  paymentPolicyId?: string | null;
  cancellationPolicyId?: string | null;
}

/**
 * The policies a new rate plan uses: an explicit id must name a live policy of this property (422
 * otherwise); an omitted side takes the property's oldest policy of that kind, or a placeholder created
 * now when the property has none. Call after locking the property row, so two creations seed one pair.
 */
export async function policiesFor(
  tx: Db,
  property: PropertyRow,
  choice: PolicyChoice,
): Promise<{ paymentPolicyId: number; cancellationPolicyId: number }> {
  const paymentPolicyId = choice.paymentPolicyId
    ? await explicitPolicy(tx, 'payment_policies', property.id, choice.paymentPolicyId, 'payment_policy_id')
    : ((await oldestPolicy(tx, 'payment_policies', property.id)) ?? (await placeholderPayment(tx, property)));
  const cancellationPolicyId = choice.cancellationPolicyId
    ? await explicitPolicy(
        tx,
        'cancellation_policies',
        property.id,
        choice.cancellationPolicyId,
        'cancellation_policy_id',
      )
    : ((await oldestPolicy(tx, 'cancellation_policies', property.id)) ?? (await placeholderCancellation(tx, property)));
  return { paymentPolicyId, cancellationPolicyId };
}

/**
 * The internal id of a live policy of this property named by its external id; 422 `not_found` on `field`
 * otherwise. Rate plan creation and PATCH both name policies this way.
 */
export async function explicitPolicy(
  tx: Db,
  table: 'payment_policies' | 'cancellation_policies',
  propertyId: number,
  externalId: string,
  field: string,
): Promise<number> {
  const [row] = isUuid(externalId)
    ? await tx.query<{ id: number }>(
        `select id from ${table} where external_id = $1 and property_id = $2 and deleted_at is null`,
        [externalId, propertyId],
      )
    : [];
  if (!row) throw fieldError('rate_plan', field, 'not_found');
  return row.id;
}

async function oldestPolicy(tx: Db, table: 'payment_policies' | 'cancellation_policies', propertyId: number) {
  const [row] = await tx.query<{ id: number }>(
    `select id from ${table} where property_id = $1 and deleted_at is null order by id limit 1`,
    [propertyId],
  );
  return row?.id;
}

async function placeholderPayment(tx: Db, property: PropertyRow): Promise<number> {
  const [row] = await tx.sql<{ id: number; external_id: string }>`
    insert into payment_policies (property_id, name, name_tr, pay_type, is_placeholder)
    values (${property.id}, ${PLACEHOLDER_PAYMENT_NAME}, ${nameTrOf(PLACEHOLDER_PAYMENT_NAME, undefined)}, 'on_arr', true)
    returning id, external_id`;
  if (!row) throw new Error('payment policy insert returned no row');
  await recordEvent(tx, {
    type: 'payment_policy.created',
    customerId: property.customer_id,
    propertyId: property.id,
    data: { property_id: property.external_id, payment_policy_id: row.external_id, placeholder: true },
  });
  return row.id;
}

async function placeholderCancellation(tx: Db, property: PropertyRow): Promise<number> {
  const [row] = await tx.sql<{ id: number; external_id: string }>`
    insert into cancellation_policies (property_id, name, name_tr, rules, is_placeholder)
    values (${property.id}, ${PLACEHOLDER_CANCELLATION_NAME}, ${nameTrOf(PLACEHOLDER_CANCELLATION_NAME, undefined)}, '[]'::jsonb, true)
    returning id, external_id`;
  if (!row) throw new Error('cancellation policy insert returned no row');
  await recordEvent(tx, {
    type: 'cancellation_policy.created',
    customerId: property.customer_id,
    propertyId: property.id,
    data: { property_id: property.external_id, cancellation_policy_id: row.external_id, placeholder: true },
  });
  return row.id;
}
