import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { ApiError, validationError } from '../core/http/api-error.ts';
import { findProperties } from '../core/resolve.ts';

/**
 * Property groups are the account's structure: a credential narrowed to some properties neither reads nor
 * changes them (403 `errors.qc.account_scoped_credential_required`). An account-scoped one manages every property of
 * the account, paused groups' included (pausing drops them from its allow-list, and it must be able to resume).
 */
export function requireAccountScope(principal: Principal): void {
  if (!principal.accountScoped) throw new ApiError('errors.qc.account_scoped_credential_required');
}

/** The account's properties a body names (external ids or partner codes), by the one resolver; 422 for an unknown one. */
export async function accountProperties(db: Db, principal: Principal, refs: readonly string[]): Promise<number[]> {
  const rows = await findProperties(db, { customerId: principal.customerId }, refs);
  const unknown = rows.flatMap((row, i) => (row ? [] : [`property_ids.${i}`]));
  if (unknown.length)
    throw validationError(Object.fromEntries(unknown.map((path) => [path, ['customer.property_group.messages.in']])));
  return rows.map((row) => (row as { id: number }).id);
}
