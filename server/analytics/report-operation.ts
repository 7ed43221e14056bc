import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { RangeQuery, type ReportKind, reportEnvelope } from './model.ts';
import { analyticsReport } from './reports.ts';

const COMMON = [
  'Scope `analytics.read`. `from` and `to` are days (inclusive), at most 366 days apart. With QC_ANALYTICS_URL',
  'set the figures come from that upstream (`source: upstream`); unreachable, timing out or answering non-2xx',
  'is 502 `errors.qc.analytics_upstream_error`. Without it the service computes them from its own bookings',
  '(`source: builtin`). Answers are cached for 60 seconds per property, report and range (`generated_at`).',
].join(' ');

/** The definition of one analytics report route: the six differ only in the report they answer. */
export function reportOperation(kind: ReportKind, summary: string, fields: string) {
  return defineRoute({
    name: `qc.analytics.${kind}`,
    method: 'GET',
    path: `/properties/:property/analytics/${kind}`,
    scope: 'analytics.read',
    bucket: 'reads',
    resource: 'analytics',
    summary,
    tags: ['analytics'],
    description: `${fields} ${COMMON}`,
    params: PropertyParams,
    query: RangeQuery,
    response: okSchema(reportEnvelope(kind)),
    errors: ['errors.qc.analytics_upstream_error'],
    handle: inProperty(async ({ deps, query }, property) => {
      const report = await analyticsReport(deps, kind, property, query);
      return ok({ property_id: property.external_id, report: kind, from: query.from, to: query.to, ...report });
    }),
  });
}
