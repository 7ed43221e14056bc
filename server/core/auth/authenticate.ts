import type { Deps } from '../deps.ts';
import { unauthorized } from '../http/api-error.ts';
import { bearerToken } from './credentials.ts';
import { PARTNER_AUDIENCE, verifyJwt } from './jwt.ts';
import type { Principal } from './principal.ts';
import { principalCache } from './principal-cache.ts';
import { isScope, type Scope } from './scopes.ts';
import { sha256Hex } from './secrets.ts';

export const PERSONAL_TOKEN_PREFIX = 'qc_';

interface ClientRow {
  id: number;
  client_id: string;
  kind: 'oauth' | 'personal';
  customer_id: number;
  scopes: string[];
  account_scoped: boolean;
  endpoint_scopes: string[];
  tier: string;
  allowed: number[];
}

/** A property `p` outside paused groups: half of ALLOWED_PROPERTY, and all a legacy key asks (legacy/auth.ts). */
export const OUTSIDE_PAUSED_GROUP = 'not exists (select from property_groups g where g.id = p.group_id and g.paused)';

/**
 * A property `p` a credential may act on when it is the credential's: active, and outside paused groups. The
 * allow-list below and the reads that page an account-scoped credential's properties by customer (the feed, the
 * property list) use this one predicate, so they stay the same set.
 */
export const ALLOWED_PROPERTY = `p.status = 'active'
  and ${OUTSIDE_PAUSED_GROUP}`;

// The allow-list is resolved in the same query, live: account-scoped clients see the customer's allowed
// properties (a scan of the customer's); fixed clients see the granted ids still allowed, found by probing those
// ids. Never crosses customers. The customer test of a fixed client stands outside an `offset 0`: beside the ids it
// let the planner scan the customer's properties instead and filter them by id (3000 read for a token of 3).
// CREDENTIAL_ALLOWED is also what the webhook relay applies to a subscription's creating credential `c`.
export const CREDENTIAL_ALLOWED = `case when c.account_scoped
    then array(select p.id from properties p where p.customer_id = c.customer_id and ${ALLOWED_PROPERTY})
    else array(select granted.id from (
        select p.id, p.customer_id from properties p where p.id = any(c.property_ids) and ${ALLOWED_PROPERTY} offset 0
      ) granted where granted.customer_id = c.customer_id)
  end`;
const CLIENT_COLUMNS = `c.id, c.client_id, c.kind, c.customer_id, c.scopes, c.account_scoped, c.endpoint_scopes, c.tier,
  ${CREDENTIAL_ALLOWED} as allowed`;

/** Resolves `Authorization: Bearer <JWT | qc_ personal token>` to a Principal, or throws 401. */
export async function authenticate(deps: Deps, authorization: string | null): Promise<Principal> {
  const token = bearerToken(authorization);
  if (!token) throw unauthorized(token);

  if (token.startsWith(PERSONAL_TOKEN_PREFIX)) {
    // Lookup by the token's hash: the hash reveals nothing about the token, so no timing side channel.
    const hash = sha256Hex(token);
    const row = await clientRow(deps, `personal:${hash}`, async () => {
      const [found] = await deps.db.query<ClientRow>(
        `select ${CLIENT_COLUMNS} from api_clients c
         where c.secret_hash = $1 and c.kind = 'personal' and c.revoked_at is null`,
        [hash],
      );
      return found;
    });
    if (!row) throw unauthorized(token);
    return principalOf(row, undefined);
  }

  const claims = await verifyJwt(deps.keys, deps.clock, PARTNER_AUDIENCE, token);
  if (!claims) throw unauthorized(token);
  const row = await clientRow(deps, `oauth:${claims.sub}`, async () => {
    const [found] = await deps.db.query<ClientRow>(
      `select ${CLIENT_COLUMNS} from api_clients c where c.client_id = $1 and c.kind = 'oauth' and c.revoked_at is null`,
      [claims.sub],
    );
    return found;
  });
  if (!row) throw unauthorized(token);
  return principalOf(row, typeof claims.scope === 'string' ? claims.scope : undefined);
}

/**
 * The client row of `key`: a fresh cached one as it is, without the look-up's promise (every request of a known
 * token comes this way: issue 27), else from the cache's look-up.
 */
function clientRow(
  deps: Deps,
  key: string,
  load: () => Promise<ClientRow | undefined>,
): ClientRow | Promise<ClientRow | undefined> {
  const cache = principalCache<ClientRow>(deps.db);
  return cache.fresh(key) ?? cache.get(key, load);
}

// The principals built from one cached row, by the token's scope claim: a row is kept for up to
// PRINCIPAL_MAX_AGE_MS and read by every request of its token, which rebuilt the same sets each time (issue 27).
// Keyed by the row object, so a row dropped from the cache (revocation, scope removal) takes its principals along.
const built = new WeakMap<ClientRow, Map<string | undefined, Principal>>();

function principalOf(row: ClientRow, scopeClaim: string | undefined): Principal {
  let byScope = built.get(row);
  if (!byScope) {
    byScope = new Map();
    built.set(row, byScope);
  }
  let principal = byScope.get(scopeClaim);
  if (!principal) {
    // A token narrowed at issue keeps its narrowing; a scope removed from the client since is gone at once.
    const requested = scopeClaim === undefined ? row.scopes : scopeClaim.split(' ');
    principal = toPrincipal(
      row,
      requested.filter((s) => row.scopes.includes(s)),
    );
    // Distinct scope claims are few per client; the bound keeps a forged variety from growing memory.
    if (byScope.size >= 16) byScope.clear();
    byScope.set(scopeClaim, principal);
  }
  return principal;
}

function toPrincipal(row: ClientRow, scopes: string[]): Principal {
  return {
    clientPk: row.id,
    clientId: row.client_id,
    kind: row.kind,
    customerId: row.customer_id,
    scopes: new Set(scopes.filter(isScope) as Scope[]),
    accountScoped: row.account_scoped,
    propertyIds: new Set(row.allowed),
    endpointScopes: row.endpoint_scopes,
    tier: row.tier,
  };
}
