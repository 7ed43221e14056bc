import { recordWrite } from '../config-surfaces/config-event.ts';
import { findOwned, type OwnedRow, updateOwned } from '../config-surfaces/owned-records.ts';
import { deleteUnusedPolicy } from '../config-surfaces/policy-usage.ts';
import type { Db } from '../core/db/db.ts';
import { nameTrOf, renamedNameTr } from '../core/name-tr.ts';
import type { PropertyRow } from '../core/resolve.ts';
import type { PayType } from './model.ts';
import { paymentTerms } from './rules.ts';

export interface PaymentPolicyRow extends OwnedRow {
  name: string;
  name_tr: Record<string, string>;
  pay_type: PayType;
  num_days: number | null;
  date: string | null;
  percent: number;
  is_placeholder: boolean;
}

export interface PaymentPolicyInput {
  name?: string;
  name_tr?: Record<string, string>;
  pay_type?: PayType;
  num_days?: number | null;
  date?: string | null;
  percent?: number;
}

export async function createPaymentPolicy(
  tx: Db,
  property: PropertyRow,
  input: PaymentPolicyInput & { name: string; pay_type: PayType },
  now: Date,
): Promise<PaymentPolicyRow> {
  const terms = paymentTerms({ pay_type: input.pay_type, num_days: input.num_days ?? null, date: input.date ?? null });
  const [row] = await tx.sql<PaymentPolicyRow>`
    insert into payment_policies (property_id, name, name_tr, pay_type, num_days, date, percent, created_at, updated_at)
    values (${property.id}, ${input.name}, ${nameTrOf(input.name, input.name_tr)}, ${terms.pay_type}, ${terms.num_days},
      ${terms.date}, ${input.percent ?? 100}, ${now}, ${now})
    returning *`;
  return recordWrite(tx, property, { type: 'payment_policy.created' }, row, { placeholder: false });
}

/**
 * PATCH: only the fields present change; the merged terms are checked as a whole. Editing a placeholder
 * makes it an ordinary policy (is_placeholder false): the partner has now stated its terms.
 */
export async function updatePaymentPolicy(
  tx: Db,
  property: PropertyRow,
  id: string,
  input: PaymentPolicyInput,
  now: Date,
): Promise<PaymentPolicyRow> {
  const current = await findOwned<PaymentPolicyRow>(tx, 'payment_policies', property.id, id, true);
  const terms = paymentTerms({
    pay_type: input.pay_type ?? current.pay_type,
    num_days: input.num_days === undefined ? current.num_days : input.num_days,
    date: input.date === undefined ? current.date : input.date,
  });
  const row = await updateOwned<PaymentPolicyRow>(
    tx,
    'payment_policies',
    current.id,
    {
      name: input.name ?? current.name,
      name_tr: input.name_tr ?? renamedNameTr(current.name_tr, current.name, input.name ?? current.name),
      pay_type: terms.pay_type,
      num_days: terms.num_days,
      date: terms.date,
      percent: input.percent ?? current.percent,
      is_placeholder: false,
    },
    now,
  );
  if (!row) return current;
  return recordWrite(tx, property, { type: 'payment_policy.updated' }, row, { pay_type: terms.pay_type });
}

/** 409 `errors.qc.payment_policy_in_use` (listing the plans) while a live rate plan points at it. */
export function deletePaymentPolicy(tx: Db, property: PropertyRow, id: string, now: Date): Promise<string> {
  return deleteUnusedPolicy(tx, { table: 'payment_policies', type: 'payment_policy.deleted' }, property, id, now);
}
