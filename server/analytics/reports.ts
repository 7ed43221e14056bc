import { daysBetween, isDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';
import { fieldError } from '../core/http/api-error.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { bookingsReport, campaignsReport, funnelReport, trafficReport } from './builtin-bookings.ts';
import { overviewReport, paceReport, type Range } from './builtin-stays.ts';
import type { Report, ReportKind } from './model.ts';
import { upstreamReport } from './upstream.ts';

/** Answers are kept this long per property, report and range: dashboards poll, the figures move slowly. */
export const CACHE_MS = 60_000;
const CACHE_ENTRIES = 2_000;
/** `to` at most this many days after `from` (README and the query's schema text): 367 days counted inclusively. */
const MAX_DAYS_APART = 366;

interface Cached {
  at: number;
  value: { source: 'builtin' | 'upstream'; generated_at: string; data: unknown };
}
const caches = new WeakMap<Deps, Map<string, Cached>>();

const builtin: { [K in ReportKind]: (deps: Deps, p: PropertyRow, r: Range, now: Date) => Promise<Report<K>> } = {
  overview: (deps, p, r) => overviewReport(deps.db, p, r),
  pace: (deps, p, r, now) => paceReport(deps.db, p, r, now),
  bookings: (deps, p, r, now) => bookingsReport(deps.db, p, r, now),
  traffic: (deps, p, r, now) => trafficReport(deps.db, p, r, now),
  funnel: (deps, p, r, now) => funnelReport(deps.db, p, r, now),
  campaigns: (deps, p, r, now) => campaignsReport(deps.db, p, r, now),
};

/**
 * One report for a property and a range: from QC_ANALYTICS_URL when set, else computed by the built-in
 * provider from the service's own data. Cached for CACHE_MS per property, report and range (failures are
 * not cached, so the next call asks the upstream again).
 */
export async function analyticsReport<K extends ReportKind>(deps: Deps, kind: K, property: PropertyRow, range: Range) {
  checkRange(range);
  const cache = caches.get(deps) ?? new Map<string, Cached>();
  caches.set(deps, cache);
  const key = `${property.id}:${kind}:${range.from}:${range.to}`;
  const now = deps.clock.now();
  const hit = cache.get(key);
  if (hit && now.getTime() - hit.at < CACHE_MS) return hit.value;
  const upstream = deps.config.analyticsUrl;
  const data = upstream
    ? await upstreamReport(deps, upstream, kind, property, range)
    : await builtin[kind](deps, property, range, now);
  const value = {
    source: upstream ? ('upstream' as const) : ('builtin' as const),
    generated_at: now.toISOString(),
    data,
  };
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, { at: now.getTime(), value });
  return value;
}

function checkRange(range: Range): void {
  // The date format admits 2026-02-30; the database would refuse it as a date.
  for (const field of ['from', 'to'] as const) if (!isDay(range[field])) throw fieldError('analytics', field, 'format');
  const days = daysBetween(range.from, range.to);
  if (days < 0) throw fieldError('analytics', 'to', 'before_from');
  if (days > MAX_DAYS_APART) throw fieldError('analytics', 'to', 'max_range');
}
