import { sha256Hex } from '../core/auth/secrets.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError, notFound } from '../core/http/api-error.ts';
import { pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { guardLiveFlip, type LiveFlipStanding } from './cutover-guard.ts';
import { checkUpstreamUrl } from './upstream-url.ts';

export type CutoverMode = 'shadow' | 'live';

/** A legacy key as the operator reads it (never the key itself: only its digest is stored). */
export interface LegacyKeyView {
  id: number;
  property_id: string;
  pms_name: string;
  active: boolean;
  mode: CutoverMode;
  /** The key's own legacy base URL; null: QC_LEGACY_UPSTREAM_URL applies. */
  upstream_url: string | null;
  /** The operator's override for upstream_url: it may resolve to private and loopback addresses. */
  allow_private_upstream: boolean;
  /** Where shadow requests go: upstream_url, else QC_LEGACY_UPSTREAM_URL; null when neither is set. */
  effective_upstream_url: string | null;
  cutover_changed_at: string | null;
  created_at: string;
}

/** Shadow needs a legacy service to forward to: the key's own or the configured default. */
export function requireUpstream(mode: CutoverMode, upstreamUrl: string | null | undefined, fallback?: string): void {
  if (mode === 'shadow' && !upstreamUrl && !fallback) throw new ApiError('errors.qc.legacy_upstream_missing');
}

export async function legacyKeyView(deps: Deps, id: number): Promise<LegacyKeyView> {
  const row = await readKey(deps.db, id);
  if (!row) throw notFound();
  return view(row, deps.config.legacyCutover.upstreamUrl);
}

/**
 * Flips a key between shadow and live. Nothing caches the mode (the facade reads it with the key on every
 * request), so the next request of this key, on any process, follows it. `upstream_url` absent keeps the key's
 * current one; null clears it (the configured default applies again); a new one must pass ./upstream-url.ts.
 * From shadow to live the key must have earned it (./cutover-guard.ts) unless `force`; a forced flip answers
 * the standing it overrode as `forced`.
 */
export async function setCutover(
  deps: Deps,
  id: number,
  change: { mode: CutoverMode; upstream_url?: string | null; allow_private_upstream?: boolean; force?: boolean },
): Promise<LegacyKeyView & { forced?: LiveFlipStanding }> {
  const current = await readKey(deps.db, id);
  if (!current) throw notFound();
  const upstream = change.upstream_url === undefined ? current.upstream_url : change.upstream_url;
  // The override goes with the URL it was given for: kept with a kept URL unless given again, dropped with it.
  const allowPrivate =
    change.allow_private_upstream ?? (change.upstream_url === undefined ? current.allow_private_upstream : false);
  if (upstream && (change.upstream_url || change.allow_private_upstream !== undefined))
    await checkUpstreamUrl(upstream, allowPrivate);
  requireUpstream(change.mode, upstream, deps.config.legacyCutover.upstreamUrl);
  const forced =
    current.mode === 'shadow' && change.mode === 'live'
      ? await guardLiveFlip(deps, id, change.force === true)
      : undefined;
  await deps.db.sql`
    update legacy_api_keys set cutover_mode = ${change.mode}, upstream_url = ${upstream},
      allow_private_upstream = ${upstream !== null && allowPrivate}, cutover_changed_at = ${deps.clock.now()}
    where id = ${id}`;
  // The row keeps only the latest setting: the log is the trail of who answered a PMS when (a flip to live, back).
  deps.log.info('legacy cutover changed', {
    key_id: id,
    from: current.mode,
    to: change.mode,
    upstream: upstream ? new URL(upstream).origin : null,
  });
  if (!forced) return legacyKeyView(deps, id);
  // Flipped before its streak earned it: the trail says so, with what was overridden.
  deps.log.warn('legacy cutover forced', { key_id: id, ...forced });
  return { ...(await legacyKeyView(deps, id)), forced };
}

type KeyRow = Omit<LegacyKeyView, 'effective_upstream_url' | 'cutover_changed_at' | 'created_at'> & {
  cutover_changed_at: Date | null;
  created_at: Date;
};

/** The keys matching every filter given, newest first, one page of them with the list `meta`. */
export async function findLegacyKeys(
  deps: Deps,
  filter: { api_key?: string; property_id?: string; customer_id?: number; page?: number; per_page?: number },
) {
  const { page, perPage } = pageOf(filter);
  const digest = filter.api_key === undefined ? null : sha256Hex(filter.api_key);
  const rows = await deps.db.sql<KeyRow & { total: number }>`
    select k.id, p.external_id::text as property_id, k.pms_name, k.active, k.cutover_mode as mode, k.upstream_url, k.allow_private_upstream,
      k.cutover_changed_at, k.created_at, count(*) over ()::int as total
    from legacy_api_keys k join properties p on p.id = k.property_id
    where (${digest}::text is null or k.key_hash = ${digest})
      and (${filter.property_id ?? null}::uuid is null or p.external_id = ${filter.property_id ?? null}::uuid)
      and (${filter.customer_id ?? null}::bigint is null or k.customer_id = ${filter.customer_id ?? null})
    order by k.id desc limit ${perPage} offset ${(page - 1) * perPage}`;
  const fallback = deps.config.legacyCutover.upstreamUrl;
  return {
    legacy_keys: rows.map(({ total: _, ...row }) => view(row, fallback)),
    meta: pageMeta(rows[0]?.total ?? 0, page, perPage),
  };
}

async function readKey(db: Db, id: number): Promise<KeyRow | undefined> {
  const [row] = await db.sql<KeyRow>`
    select k.id, p.external_id::text as property_id, k.pms_name, k.active, k.cutover_mode as mode, k.upstream_url, k.allow_private_upstream,
      k.cutover_changed_at, k.created_at
    from legacy_api_keys k join properties p on p.id = k.property_id where k.id = ${id}`;
  return row;
}

function view(row: KeyRow, fallback: string | undefined): LegacyKeyView {
  return {
    ...row,
    effective_upstream_url: row.upstream_url ?? fallback ?? null,
    cutover_changed_at: row.cutover_changed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}
