import { writeFile } from 'node:fs/promises';
import type { Exchange } from '../compare/exchange.ts';
import {
  DIFFERENCE_CLASSES,
  type DifferenceClass,
  type FieldDifference,
  severityOf,
  worstClass,
} from '../compare/field-difference.ts';
import type { DifferenceSummary, KeptExchange, RuleForgiveness, RunSummary } from '../compare/score.ts';
import { decodeBody } from '../corpus/har.ts';
import { NO_REDACTION, REDACTION } from '../report/redact.ts';
import { renderReport } from '../report/render-report.ts';
import { percent } from '../report/score-plot.ts';
import { UsageError } from './usage-error.ts';

/** `GET /ops/legacy-keys/{id}/shadow-scores` as the service answers it (only what the report reads). */
interface ShadowScores {
  key_id: number;
  from: string;
  to: string;
  days: Array<{
    date: string;
    compared: number;
    different: number;
    score: number | null;
    unanswered: number;
    overflowed: number;
    /** Comparisons that failed in the service; absent from a service older than the count (2026-11-28). */
    failed?: number;
    /** Absent from a service older than the count (2026-11-28). */
    forgiven?: number;
  }>;
  endpoints: Array<{ method: string; path: string; compared: number; different: number }>;
  /** Absent from a service older than the count (2026-11-28). */
  ignore_rules?: RuleForgiveness[];
  zero_streak_days: number;
  meets_rule: boolean;
  samples: Array<{
    date: string;
    method: string;
    path: string;
    query: string;
    request_body: string | null;
    /** The exact bytes when they are not UTF-8 (`request_body` then shows them as U+FFFD). */
    request_body_base64?: string;
    upstream: SampleBody;
    port: SampleBody;
    fields: FieldDifference[];
    /** When the PMS asked (ISO 8601, UTC; before 2026-11-28 when the comparison ran). */
    at?: string;
  }>;
}

/** A kept body: its text, and its exact bytes when they are not UTF-8 (absent from a service before 2026-11-28). */
interface SampleBody {
  status: number;
  body: string;
  body_base64?: string;
}

export interface ServiceReportFlags {
  fromService: string;
  key: number;
  out: string;
  token?: string;
  from?: string;
  to?: string;
  /** false with `--no-redact`. */
  redact?: boolean;
}

/**
 * `report --from-service URL --key ID --out FILE.html`: the same HTML report as a replay's, built from a
 * credential's daily shadow-difference scores in the service (operator API, over HTTP like everything the
 * harness does): the score over the range, the score of each day with traffic as the plot, the endpoints, and
 * the sample differences the service kept (guest data masked there, and again here with the harness's secrets,
 * unless --no-redact). Exit 0 when no day differed, 1 otherwise.
 */
export async function serviceReportCommand(flags: ServiceReportFlags): Promise<number> {
  const token = flags.token ?? process.env.QC_OPERATOR_TOKEN;
  if (!token) throw new UsageError('report --from-service needs the operator token: --token or QC_OPERATOR_TOKEN');
  if (!URL.canParse(flags.fromService)) throw new UsageError(`--from-service ${flags.fromService}: not a URL`);
  const url = new URL(`/ops/legacy-keys/${flags.key}/shadow-scores`, flags.fromService);
  if (flags.from) url.searchParams.set('from', flags.from);
  if (flags.to) url.searchParams.set('to', flags.to);
  const headers = { authorization: `Bearer ${token}` };
  const res = await fetch(url, { headers }).catch((err: unknown) => {
    throw new UsageError(`${url.origin}: no answer (${(err as Error).message})`);
  });
  if (res.status !== 200) throw new UsageError(`${url.origin}${url.pathname}: ${res.status} ${await res.text()}`);
  const scores = ((await res.json().catch(() => undefined)) as { data?: ShadowScores } | undefined)?.data;
  if (!Array.isArray(scores?.days) || !Array.isArray(scores?.samples))
    throw new UsageError(`${url.origin}${url.pathname}: the answer is not a service's shadow scores`);

  const key = await keyOf(new URL(`/ops/legacy-keys/${flags.key}`, flags.fromService), headers);

  const traffic = scores.days.filter((day) => day.compared > 0);
  const exchanges = sum(traffic.map((day) => day.compared));
  const different = sum(traffic.map((day) => day.different));
  const forgiven = sum(traffic.map((day) => day.forgiven ?? 0));
  const kept = scores.samples.map(keptSample);
  // The service counts differences per day and endpoint; classes are known for its samples only.
  const classes = Object.fromEntries(DIFFERENCE_CLASSES.map((c) => [c, 0])) as Record<DifferenceClass, number>;
  for (const k of kept) classes[k.class ?? 'value']++;
  const summary: RunSummary = {
    exchanges,
    identical: exchanges - different - forgiven,
    different,
    noise_only: forgiven,
    failed: 0,
    score: exchanges ? different / exchanges : 0,
    classes,
    endpoints: scores.endpoints.map((e) => ({ ...e, exchanges: e.compared, fields: endpointFields(scores, e) })),
    differences: kept.map(
      (k): DifferenceSummary => ({
        index: k.index,
        method: k.recorded.method,
        url: k.recorded.url,
        status: { recorded: k.recorded.status, replayed: k.replayed?.status ?? null },
        class: k.class ?? 'value',
        severity: severityOf(k.class ?? 'value'),
        fields: k.fields,
        ...(k.at === undefined ? {} : { at: k.at }),
      }),
    ),
    ignore_rules: scores.ignore_rules ?? [],
  };
  const unanswered = sum(scores.days.map((day) => day.unanswered));
  // Shadowed requests dropped by a full comparison queue: the score is of the rest, so the page says how many.
  const overflowed = sum(scores.days.map((day) => day.overflowed));
  // Comparisons that failed in the service (a lock, a database error): lost too, not counted as different.
  const failed = sum(scores.days.map((day) => day.failed ?? 0));
  const redactor = flags.redact === false ? NO_REDACTION : REDACTION;
  const html = renderReport({
    title: `Shadow-difference score, legacy key ${scores.key_id}${key ? ` (${key.pms_name})` : ''}`,
    subject: `${url.origin}${key ? ` · property ${key.property_id} · PMS ${key.pms_name} · now ${key.mode}${key.active ? '' : ', inactive'}` : ''} · ${scores.from} to ${scores.to} · zero streak ${scores.zero_streak_days} days${scores.meets_rule ? ' (meets the 90-day rule)' : ''}${unanswered ? ` · ${unanswered} unanswered by the legacy service` : ''}${overflowed ? ` · ${overflowed} not compared (queue full)` : ''}${failed ? ` · ${failed} not compared (comparison failed)` : ''}`,
    finishedAt: new Date().toISOString(),
    summary: redactor.summary(summary),
    kept: redactor.kept(kept),
    redacted: flags.redact !== false,
    forgiven: [],
    noise: [],
    history: traffic.map((day) => ({
      finished_at: day.date,
      score: day.score ?? 0,
      exchanges: day.compared,
      different: day.different,
      failed: 0,
      label: day.date,
    })),
  });
  await writeFile(flags.out, html);
  console.log(
    `key ${scores.key_id}, ${scores.from} to ${scores.to}: ${exchanges} compared, ${different} different. ` +
      `${exchanges ? `Score ${percent(summary.score)}` : 'No score: nothing was compared'}; ` +
      `zero streak ${scores.zero_streak_days} days. Report: ${flags.out}`,
  );
  return different > 0 ? 1 : 0;
}

/** `GET /ops/legacy-keys/{id}` (only what the report names). */
interface LegacyKey {
  property_id: string;
  pms_name: string;
  mode: string;
  active: boolean;
}

/** Which PMS and property the key is, for the report to say; undefined when the service does not say. */
async function keyOf(url: URL, headers: Record<string, string>): Promise<LegacyKey | undefined> {
  const res = await fetch(url, { headers }).catch(() => undefined);
  if (res?.status !== 200) return undefined;
  const key = ((await res.json().catch(() => undefined)) as { data?: LegacyKey } | undefined)?.data;
  return typeof key?.pms_name === 'string' && typeof key.property_id === 'string' ? key : undefined;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** A kept body's exact bytes: base64 when the service sent them so, else the text's UTF-8. */
const bytesOf = (text: string, base64: string | undefined) =>
  base64 === undefined ? decodeBody(text, undefined) : decodeBody(base64, 'base64');

function keptSample(sample: ShadowScores['samples'][number], index: number): KeptExchange {
  const recorded: Exchange = {
    method: sample.method,
    url: `${sample.path}${sample.query}`,
    requestHeaders: [],
    requestBody: sample.request_body === null ? null : bytesOf(sample.request_body, sample.request_body_base64),
    status: sample.upstream.status,
    responseHeaders: [],
    responseBody: bytesOf(sample.upstream.body, sample.upstream.body_base64),
  };
  return {
    index,
    recorded,
    replayed: {
      status: sample.port.status,
      responseHeaders: [],
      responseBody: bytesOf(sample.port.body, sample.port.body_base64),
    },
    fields: sample.fields,
    class: worstClass(sample.fields) ?? 'value',
    ...(sample.at === undefined ? {} : { at: sample.at }),
  };
}

/** The endpoint's differing fields as the samples show them (the service keeps counts per endpoint, fields per sample). */
function endpointFields(scores: ShadowScores, endpoint: { method: string; path: string }) {
  const fields = new Map<
    string,
    { path: string; count: number; example: { recorded?: unknown; replayed?: unknown } }
  >();
  for (const sample of scores.samples.filter((s) => s.method === endpoint.method && s.path === endpoint.path)) {
    for (const field of sample.fields) {
      const seen = fields.get(field.path) ?? {
        path: field.path,
        count: 0,
        example: { recorded: field.recorded, replayed: field.replayed },
      };
      seen.count++;
      fields.set(field.path, seen);
    }
  }
  return [...fields.values()].sort((a, b) => b.count - a.count);
}
