import { Value } from '@sinclair/typebox/value';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import { errorFields } from '../core/log.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { TimeoutError, withTimeout } from '../core/timeout.ts';
import type { Range } from './builtin-stays.ts';
import { type Report, type ReportKind, ReportSchemas } from './model.ts';

/**
 * GET {QC_ANALYTICS_URL}/properties/{external id}/{report}?from&to, answering `{data: <report>}` in the
 * shape of ReportSchemas. Unreachable, slower than QC_ANALYTICS_TIMEOUT_MS, non-2xx, or another shape:
 * 502 errors.qc.analytics_upstream_error (never a hang: the request is aborted at the deadline).
 */
export async function upstreamReport<K extends ReportKind>(
  deps: Deps,
  baseUrl: string,
  kind: K,
  property: PropertyRow,
  range: Range,
): Promise<Report<K>> {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/properties/${property.external_id}/${kind}`);
  url.searchParams.set('from', range.from);
  url.searchParams.set('to', range.to);
  const controller = new AbortController();
  try {
    const body = await withTimeout(
      (async () => {
        const res = await fetch(url, { headers: { accept: 'application/json' }, signal: controller.signal });
        if (!res.ok) {
          await res.body?.cancel();
          throw new UpstreamFailure(`analytics upstream answered ${res.status}`);
        }
        return (await res.json()) as { data?: unknown };
      })(),
      deps.config.analyticsTimeoutMs,
    );
    if (!Value.Check(ReportSchemas[kind], body?.data))
      throw new UpstreamFailure('analytics upstream answered another shape');
    return body.data as Report<K>;
  } catch (err) {
    if (!(err instanceof UpstreamFailure || err instanceof TimeoutError || isFetchFailure(err))) throw err;
    deps.log.warn('analytics upstream failed', { ...errorFields(err), report: kind, url: url.origin });
    throw new ApiError('errors.qc.analytics_upstream_error');
  } finally {
    controller.abort();
  }
}

class UpstreamFailure extends Error {}

/** What fetch throws for a refused connection, a reset, bad JSON: a TypeError or SyntaxError, never ours. */
function isFetchFailure(err: unknown): boolean {
  return (
    err instanceof TypeError || err instanceof SyntaxError || (err as { code?: string })?.code === 'ConnectionRefused'
  );
}
