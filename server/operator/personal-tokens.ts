import type { Db } from '../core/db/db.ts';

/** A personal API token as the dashboard lists it: never the token itself, which was shown once. */
export interface PersonalTokenView {
  id: string;
  name: string;
  scopes: string[];
  account_scoped: boolean;
  property_ids: string[];
  endpoint_scopes: string[];
  created_at: string;
  revoked_at: string | null;
}

interface TokenRow {
  client_id: string;
  name: string;
  scopes: string[];
  account_scoped: boolean;
  property_ids: string[];
  endpoint_scopes: string[];
  created_at: Date;
  revoked_at: Date | null;
}

// Fixed allow-lists answer the external ids of the granted properties; account-scoped ones an empty list,
// as minting echoes them.
const TOKEN_COLUMNS = `c.client_id, c.name, c.scopes, c.account_scoped, c.endpoint_scopes, c.created_at, c.revoked_at,
  array(select p.external_id::text from properties p where p.id = any(c.property_ids) order by p.id) as property_ids`;

function view(row: TokenRow): PersonalTokenView {
  return {
    id: row.client_id,
    name: row.name,
    scopes: row.scopes,
    account_scoped: row.account_scoped,
    property_ids: row.property_ids,
    endpoint_scopes: row.endpoint_scopes,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/** One page of the customer's personal tokens, newest first, revoked ones included (with `revoked_at`). */
export async function listPersonalTokens(db: Db, customerId: number, page: number, perPage: number) {
  const [rows, [count]] = await Promise.all([
    db.query<TokenRow>(
      `select ${TOKEN_COLUMNS} from api_clients c where c.customer_id = $1 and c.kind = 'personal'
       order by c.created_at desc, c.id desc limit $2 offset $3`,
      [customerId, perPage, (page - 1) * perPage],
    ),
    db.sql<{ total: number }>`
      select count(*)::int as total from api_clients where customer_id = ${customerId} and kind = 'personal'`,
  ]);
  return { tokens: rows.map(view), total: count?.total ?? 0 };
}

/**
 * Revokes one of the customer's personal tokens: it stops authenticating on its next request. Revoking it
 * again changes nothing (the first `revoked_at` stays). Undefined when the customer has no such token.
 */
export async function revokePersonalToken(
  db: Db,
  customerId: number,
  tokenId: string,
  now: Date,
): Promise<PersonalTokenView | undefined> {
  const [row] = await db.query<TokenRow>(
    `update api_clients c set revoked_at = coalesce(c.revoked_at, $3)
     where c.client_id = $1 and c.customer_id = $2 and c.kind = 'personal' returning ${TOKEN_COLUMNS}`,
    [tokenId, customerId, now],
  );
  return row ? view(row) : undefined;
}
