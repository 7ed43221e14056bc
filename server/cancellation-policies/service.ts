import { recordWrite } from '../config-surfaces/config-event.ts';
import { firstTranslation } from '../config-surfaces/model.ts';
import { findOwned, type OwnedRow, updateOwned } from '../config-surfaces/owned-records.ts';
import { deleteUnusedPolicy } from '../config-surfaces/policy-usage.ts';
import type { Db } from '../core/db/db.ts';
import { fieldError } from '../core/http/api-error.ts';
import { nameTrOf, renamedNameTr } from '../core/name-tr.ts';
import type { PropertyRow } from '../core/resolve.ts';
import type { CancellationRule } from './model.ts';
import { cancellationRules } from './rules.ts';

export interface CancellationPolicyRow extends OwnedRow {
  name: string;
  name_tr: Record<string, string>;
  /** The `data[]` rules; placeholders hold none (free cancellation). */
  rules: CancellationRule[];
  is_placeholder: boolean;
}

export interface CancellationPolicyInput {
  name?: string;
  name_tr?: Record<string, string>;
  data?: Partial<CancellationRule>[];
}

/**
 * A policy is named: `name`, or else the first non-empty `name_tr` value. When neither, 422 on name_tr: `min_length`
 * when it holds only empty texts (it was sent: `required` read "was missing"), `required` when it holds none.
 */
function policyName(name: string | undefined, nameTr: Record<string, string> | undefined): string {
  const chosen = name?.trim() ? name : firstTranslation(nameTr);
  if (!chosen)
    throw fieldError('cancellation_policy', 'name_tr', Object.keys(nameTr ?? {}).length ? 'min_length' : 'required');
  return chosen;
}

export async function createCancellationPolicy(
  tx: Db,
  property: PropertyRow,
  input: CancellationPolicyInput & { data: Partial<CancellationRule>[] },
  now: Date,
): Promise<CancellationPolicyRow> {
  const name = policyName(input.name, input.name_tr);
  const rules = cancellationRules(input.data);
  const [row] = await tx.sql<CancellationPolicyRow>`
    insert into cancellation_policies (property_id, name, name_tr, rules, created_at, updated_at)
    values (${property.id}, ${name}, ${nameTrOf(name, input.name_tr)}, ${rules}, ${now}, ${now}) returning *`;
  return recordWrite(tx, property, { type: 'cancellation_policy.created' }, row, { placeholder: false });
}

/**
 * PATCH: the fields present replace the stored ones (`data` as a whole list). Bookings already made keep
 * the policy frozen in their snapshot; the change applies to bookings made from now on. Editing a
 * placeholder makes it an ordinary policy.
 */
export async function updateCancellationPolicy(
  tx: Db,
  property: PropertyRow,
  id: string,
  input: CancellationPolicyInput,
  now: Date,
): Promise<CancellationPolicyRow> {
  const current = await findOwned<CancellationPolicyRow>(tx, 'cancellation_policies', property.id, id, true);
  const name =
    input.name !== undefined || input.name_tr !== undefined
      ? policyName(input.name, input.name_tr ?? current.name_tr)
      : current.name;
  const nameTr = input.name_tr ?? renamedNameTr(current.name_tr, current.name, name);
  const rules = input.data ? cancellationRules(input.data) : current.rules;
  const row = await updateOwned<CancellationPolicyRow>(
    tx,
    'cancellation_policies',
    current.id,
    { name, name_tr: nameTr, rules, is_placeholder: false },
    now,
  );
  if (!row) return current;
  return recordWrite(tx, property, { type: 'cancellation_policy.updated' }, row, { rules: rules.length });
}

/** 409 `errors.qc.cancellation_policy_in_use` (listing the plans) while a live rate plan uses it. */
export function deleteCancellationPolicy(tx: Db, property: PropertyRow, id: string, now: Date): Promise<string> {
  return deleteUnusedPolicy(
    tx,
    { table: 'cancellation_policies', type: 'cancellation_policy.deleted' },
    property,
    id,
    now,
  );
}
