import type { FieldDifference } from '../../harness/compare/index.ts';
import { encodeBody } from '../../harness/corpus/har.ts';
import { maskedBody, maskedValue } from '../../harness/report/sample-masking.ts';
import { addDays } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import type { DayCount } from './zero-streak.ts';

/** Samples (with both bodies) are kept this many days. */
export const SAMPLE_DAYS = 90;

/** What one shadowed request added to its key's day. */
export interface DayIncrement {
  keyId: number;
  day: string;
  compared?: number;
  different?: number;
  unanswered?: number;
  overflowed?: number;
  /** Exchanges whose comparison failed (lock, database): not compared, not different. */
  failed?: number;
  /** Exchanges that differed only in forgiven fields (compared, not different). */
  forgiven?: number;
  noiseFields?: string[];
}

/**
 * A comparison's day, the endpoint's share of it, and the ignore rules that forgave a difference in it (each
 * with the field it forgave first: rulesApplied).
 */
export async function addComparison(
  db: Db,
  add: DayIncrement & { endpoint: { method: string; path: string }; rules?: Array<{ rule: string; path: string }> },
): Promise<void> {
  const rules = add.rules ?? [];
  await db.tx(async (tx) => {
    await addToDay(tx, add);
    await tx.sql`
      insert into legacy_shadow_endpoint_days as d (key_id, day, method, path, compared, different)
      values (${add.keyId}, ${add.day}, ${add.endpoint.method}, ${add.endpoint.path}, ${add.compared ?? 0},
        ${add.different ?? 0})
      on conflict (key_id, day, method, path) do update set
        compared = d.compared + excluded.compared, different = d.different + excluded.different`;
    if (rules.length)
      await tx.sql`
        insert into legacy_shadow_rule_days as d (key_id, day, rule, exchanges, sample_path)
        select ${add.keyId}, ${add.day}, rule, 1, path
        from unnest(${rules.map((r) => r.rule)}::text[], ${rules.map((r) => r.path)}::text[]) as u(rule, path)
        on conflict (key_id, day, rule) do update set exchanges = d.exchanges + 1`;
  });
}

export async function addToDay(db: Db, add: DayIncrement): Promise<void> {
  await db.sql`
    insert into legacy_shadow_days as d (key_id, day, compared, different, unanswered, overflowed, failed,
      forgiven, noise_fields)
    values (${add.keyId}, ${add.day}, ${add.compared ?? 0}, ${add.different ?? 0}, ${add.unanswered ?? 0},
      ${add.overflowed ?? 0}, ${add.failed ?? 0}, ${add.forgiven ?? 0}, ${add.noiseFields ?? []}::text[])
    on conflict (key_id, day) do update set
      compared = d.compared + excluded.compared, different = d.different + excluded.different,
      unanswered = d.unanswered + excluded.unanswered, overflowed = d.overflowed + excluded.overflowed,
      failed = d.failed + excluded.failed, forgiven = d.forgiven + excluded.forgiven,
      noise_fields = array(select distinct f from unnest(d.noise_fields || excluded.noise_fields) f order by f)`;
}

/** One kept exchange: the PMS request and both answers, bodies as `B` (bytes when kept, their text when read back). */
interface KeptExchange<B> {
  method: string;
  path: string;
  query: string;
  upstream: { status: number } & B;
  port: { status: number } & B;
}

export interface SampleInput extends KeptExchange<{ body: Uint8Array }> {
  keyId: number;
  day: string;
  requestBody: Uint8Array | null;
  fields: FieldDifference[];
  at: Date;
}

/**
 * Keeps a differing exchange when its key has fewer than `perDay` samples that day, guest data masked, and
 * drops the key's samples older than SAMPLE_DAYS (the writer keeps the retention, so no job has to).
 */
export async function keepSample(db: Db, sample: SampleInput, perDay: number): Promise<void> {
  const fields = sample.fields.map((f) => ({
    ...f,
    ...('recorded' in f ? { recorded: maskedValue(f.path, f.recorded) } : {}),
    ...('replayed' in f ? { replayed: maskedValue(f.path, f.replayed) } : {}),
  }));
  await db.tx(async (tx) => {
    await tx.sql`delete from legacy_shadow_samples
      where key_id = ${sample.keyId} and day < ${addDays(sample.day, -SAMPLE_DAYS)}::date`;
    await tx.sql`
      insert into legacy_shadow_samples (key_id, day, method, path, query, request_bytes, upstream_status, port_status,
        upstream_bytes, port_bytes, fields, created_at)
      select ${sample.keyId}, ${sample.day}, ${sample.method}, ${sample.path}, ${sample.query},
        ${maskedBody(sample.requestBody)}::bytea, ${sample.upstream.status}, ${sample.port.status},
        ${maskedBody(sample.upstream.body)}::bytea, ${maskedBody(sample.port.body)}::bytea, ${fields}::json, ${sample.at}
      where (select count(*) from legacy_shadow_samples where key_id = ${sample.keyId} and day = ${sample.day}) < ${perDay}`;
  });
}

export interface ShadowDay extends DayCount {
  unanswered: number;
  overflowed: number;
  failed: number;
  forgiven: number;
  noise_fields: string[];
}

export async function readDays(db: Db, keyId: number, from: string, to: string): Promise<ShadowDay[]> {
  return db.sql<ShadowDay>`
    select day::text as date, compared, different, unanswered, overflowed, failed, forgiven, noise_fields
    from legacy_shadow_days where key_id = ${keyId} and day between ${from} and ${to} order by day`;
}

/** An ignore rule over a range of days: the exchanges it forgave a difference in, and the first day's field. */
export interface RuleCount {
  rule: string;
  exchanges: number;
  sample: { date: string; path: string };
}

export async function readRules(db: Db, keyId: number, from: string, to: string): Promise<RuleCount[]> {
  const rows = await db.sql<{ rule: string; exchanges: number; date: string; path: string }>`
    select rule, sum(exchanges)::int as exchanges, min(day)::text as date,
      (array_agg(sample_path order by day))[1] as path
    from legacy_shadow_rule_days where key_id = ${keyId} and day between ${from} and ${to}
    group by rule order by sum(exchanges) desc, rule`;
  return rows.map(({ rule, exchanges, date, path }) => ({ rule, exchanges, sample: { date, path } }));
}

export interface EndpointCount {
  method: string;
  path: string;
  compared: number;
  different: number;
}

export async function readEndpoints(db: Db, keyId: number, from: string, to: string): Promise<EndpointCount[]> {
  return db.sql<EndpointCount>`
    select method, path, sum(compared)::int as compared, sum(different)::int as different
    from legacy_shadow_endpoint_days where key_id = ${keyId} and day between ${from} and ${to}
    group by method, path order by sum(different) desc, path, method`;
}

/** Days with comparisons before `today`, per key (every key, or one): what the streaks are counted from. */
export async function comparedDays(
  db: Db,
  today: string,
  keyId: number | null = null,
): Promise<Map<number, DayCount[]>> {
  const rows = await db.sql<DayCount & { key_id: number }>`
    select key_id, day::text as date, compared, different from legacy_shadow_days
    where day < ${today} and compared > 0 and (${keyId}::bigint is null or key_id = ${keyId}::bigint)
    order by key_id, day desc`;
  const byKey = new Map<number, DayCount[]>();
  for (const { key_id, ...day } of rows) byKey.set(key_id, [...(byKey.get(key_id) ?? []), day]);
  return byKey;
}

/**
 * A kept body as the shadow scores answer it: `body` the bytes read as UTF-8 (a NUL is `\u0000` in the JSON);
 * when they are not UTF-8, `body` shows those bytes as U+FFFD and `body_base64` carries them exactly.
 */
export interface SampleBody {
  body: string;
  body_base64?: string;
}

export interface ShadowSample extends KeptExchange<SampleBody> {
  date: string;
  request_body: string | null;
  /** The request body's exact bytes, when they are not UTF-8. */
  request_body_base64?: string;
  fields: unknown[];
  at: string;
}

const lossyUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

function sampleBody(bytes: Uint8Array): SampleBody {
  const exact = encodeBody(bytes);
  return exact.encoding ? { body: lossyUtf8.decode(bytes), body_base64: exact.text } : { body: exact.text };
}

export async function readSamples(db: Db, keyId: number, from: string, to: string, today: string) {
  // Rows written before migration 1155 hold text only: their UTF-8 bytes are what they kept.
  const rows = await db.sql<{
    day: string;
    method: string;
    path: string;
    query: string;
    request_bytes: Uint8Array | null;
    upstream_status: number;
    port_status: number;
    upstream_bytes: Uint8Array;
    port_bytes: Uint8Array;
    fields: unknown[];
    created_at: Date;
  }>`
    select day::text as day, method, path, query,
      coalesce(request_bytes, convert_to(request_body, 'UTF8')) as request_bytes, upstream_status, port_status,
      coalesce(upstream_bytes, convert_to(upstream_body, 'UTF8')) as upstream_bytes,
      coalesce(port_bytes, convert_to(port_body, 'UTF8')) as port_bytes, fields, created_at
    from legacy_shadow_samples
    where key_id = ${keyId} and day between ${from} and ${to} and day >= ${addDays(today, -SAMPLE_DAYS)}::date
    order by created_at, id`;
  return rows.map((r): ShadowSample => {
    const request = r.request_bytes === null ? null : sampleBody(r.request_bytes);
    return {
      date: r.day,
      method: r.method,
      path: r.path,
      query: r.query,
      request_body: request?.body ?? null,
      ...(request?.body_base64 === undefined ? {} : { request_body_base64: request.body_base64 }),
      upstream: { status: r.upstream_status, ...sampleBody(r.upstream_bytes) },
      port: { status: r.port_status, ...sampleBody(r.port_bytes) },
      fields: r.fields,
      at: r.created_at.toISOString(),
    };
  });
}
