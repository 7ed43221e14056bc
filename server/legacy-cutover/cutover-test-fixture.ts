import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange } from '../../harness/compare/index.ts';
import { CorpusWriter } from '../../harness/corpus/corpus-writer.ts';
import { type CliResult, runHarness, startHarness } from '../../harness/testing/harness-cli.ts';
import { OPERATOR_TOKEN, type TestApp } from '../testing/harness.ts';
import { portDryRuns } from './port-dry-run.ts';
import { readBackOf } from './read-back.ts';
import { addToDay } from './shadow-days.ts';

/** One legacy call as a PMS sends it: the exact path, query and body bytes both the stand-in and the port get. */
export interface LegacyCall {
  method: 'GET' | 'POST';
  /** `booking/getBookings?type=new`: the api_key is added. */
  path: string;
  body?: unknown;
}

export interface SentCall {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
}

export function pathAndQuery(call: LegacyCall, apiKey: string): string {
  const [endpoint, query] = call.path.split('?');
  return `/api/pms/v1/${endpoint}?api_key=${encodeURIComponent(apiKey)}${query ? `&${query}` : ''}`;
}

export function bodyBytes(call: LegacyCall): Uint8Array | null {
  return call.body === undefined ? null : new TextEncoder().encode(JSON.stringify(call.body));
}

/** Sends the call to the app (in process) and reads the whole answer as bytes. */
export async function send(t: TestApp, call: LegacyCall, apiKey: string): Promise<SentCall> {
  const body = bodyBytes(call);
  const res = await t.app.handle(
    new Request(`http://localhost${pathAndQuery(call, apiKey)}`, {
      method: call.method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body,
    } as RequestInit),
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: new TextDecoder().decode(bytes) };
}

/** What the legacy stand-in answers to one call. */
export interface CorpusEntry {
  call: LegacyCall;
  status: number;
  body: string;
  /** The body's exact bytes, when they are not text (a NUL, bytes that are not UTF-8): `body` is then ignored. */
  bytes?: Uint8Array;
  contentType?: string;
  /** Sent as `Content-Encoding` (the bytes then being so encoded: `bytes`). */
  contentEncoding?: string;
}

/** A `.jsonl` corpus of these exchanges in a fresh temporary directory, as `harness record` would write it. */
export async function writeCorpus(entries: readonly CorpusEntry[], apiKey: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'qc-cutover-')), 'legacy.jsonl');
  const writer = await CorpusWriter.open(file);
  for (const entry of entries) {
    const body = bodyBytes(entry.call);
    const exchange: Exchange = {
      method: entry.call.method,
      url: `http://legacy.example${pathAndQuery(entry.call, apiKey)}`,
      requestHeaders: body ? [['content-type', 'application/json']] : [],
      requestBody: body,
      status: entry.status,
      responseHeaders: [
        ['content-type', entry.contentType ?? 'application/json'],
        ...(entry.contentEncoding ? [['content-encoding', entry.contentEncoding] as [string, string]] : []),
      ],
      responseBody: entry.bytes ?? new TextEncoder().encode(entry.body),
    };
    await writer.append(exchange);
  }
  await writer.close();
  return file;
}

/**
 * Records what the port answers now (the key live) to each call, for a stand-in that agrees with the port:
 * the legacy service and the port in step.
 */
export async function portEntries(t: TestApp, calls: readonly LegacyCall[], apiKey: string): Promise<CorpusEntry[]> {
  const entries: CorpusEntry[] = [];
  for (const call of calls) {
    const answer = await send(t, call, apiKey);
    entries.push({
      call,
      status: answer.status,
      body: answer.text,
      contentType: answer.headers.get('content-type') ?? '',
    });
  }
  return entries;
}

/**
 * The legacy stand-in's answer to the read-back of an updateAvailability call (./read-back.ts): what the port
 * shows after the same write, computed as a dry run (nothing written), changed by `plant` when given.
 */
export async function readBackEntry(
  t: TestApp,
  propertyId: number,
  write: LegacyCall,
  apiKey: string,
  plant: (body: string) => string = (body) => body,
): Promise<CorpusEntry> {
  const body = bodyBytes(write);
  const request = {
    method: write.method,
    pathAndQuery: pathAndQuery(write, apiKey),
    headers: body ? ([['content-type', 'application/json']] as const) : [],
    body,
  };
  const readBack = readBackOf(request);
  if (!readBack) throw new Error('the write names no day to read back');
  const [, answer] = await portDryRuns(t.deps, propertyId, [request, readBack]);
  const query = readBack.pathAndQuery.slice(readBack.pathAndQuery.indexOf('&') + 1);
  return {
    call: { method: 'GET', path: `availability/getAvailability?${query}` },
    status: answer?.status ?? 0,
    body: plant(new TextDecoder().decode(answer?.responseBody)),
  };
}

/** `harness serve` on the corpus, as its own process: the legacy stand-in. */
export function serveCorpus(file: string) {
  return startHarness(['serve', file]);
}

export async function setMode(t: TestApp, keyId: number, mode: 'shadow' | 'live', upstreamUrl?: string | null) {
  await putCutover(t, keyId, { mode, ...upstreamOf(upstreamUrl) });
}

/**
 * Flips a shadow key to live with `"force": true`: for tests that flip a key back after a few exchanges, far short
 * of the zero streak an unforced flip needs (./cutover-guard.ts).
 */
export async function forceLive(t: TestApp, keyId: number, upstreamUrl?: string | null) {
  await putCutover(t, keyId, { mode: 'live', force: true, ...upstreamOf(upstreamUrl) });
}

// Stand-ins listen on loopback: the operator's override for a private legacy service.
const upstreamOf = (upstreamUrl: string | null | undefined) =>
  upstreamUrl === undefined ? {} : { upstream_url: upstreamUrl, allow_private_upstream: true };

async function putCutover(t: TestApp, keyId: number, body: Record<string, unknown>) {
  const res = await t.ops<{ data: { mode: string } }>('PUT', `/ops/legacy-keys/${keyId}/cutover`, body);
  if (res.status !== 200) throw new Error(`cutover flip failed: ${res.status} ${res.text}`);
}

/**
 * A key's shadow history without the traffic: each day's `compared` and `different` written as the comparisons
 * would have counted them (./shadow-days.ts). For tests of what the figures decide, not of how they are made.
 */
export async function scoredDays(
  t: TestApp,
  keyId: number,
  days: ReadonlyArray<{ date: string; compared: number; different?: number; unanswered?: number }>,
) {
  for (const day of days) await addToDay(t.deps.db, { keyId, day: day.date, ...day });
}

export interface ScoresBody {
  data: {
    days: Array<{
      date: string;
      compared: number;
      different: number;
      score: number | null;
      overflowed: number;
      unanswered: number;
      failed: number;
      forgiven: number;
      noise_fields: string[];
    }>;
    ignore_rules: Array<{ rule: string; exchanges: number; sample: { date: string; path: string } }>;
    zero_streak_days: number;
    meets_rule: boolean;
    samples: Array<{
      date: string;
      /** When the PMS asked (ISO 8601, UTC). */
      at: string;
      path: string;
      query: string;
      upstream: { status: number; body: string; body_base64?: string };
      port: { status: number; body: string; body_base64?: string };
      fields: Array<{ path: string; recorded?: unknown; replayed?: unknown; class?: string; detail?: string }>;
    }>;
  };
}

export async function scores(t: TestApp, keyId: number, from: string, to: string) {
  await t.cutover.comparisons.idle();
  const res = await t.ops<ScoresBody>('GET', `/ops/legacy-keys/${keyId}/shadow-scores?from=${from}&to=${to}`);
  if (res.status !== 200) throw new Error(`shadow-scores failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/**
 * `harness report --from-service` against the app (listening on a free port for the call, stopped after: later
 * requests of the file go through app.handle as before), for the range: the CLI's outcome and the HTML it wrote.
 */
export async function reportFromService(
  t: TestApp,
  keyId: number,
  from: string,
  to: string,
): Promise<{ run: CliResult; html: string }> {
  await t.cutover.comparisons.idle();
  const server = t.app.listen({ port: 0, hostname: '127.0.0.1' }).server;
  const out = join(mkdtempSync(join(tmpdir(), 'qc-report-')), 'shadow.html');
  try {
    const run = await runHarness([
      'report',
      '--from-service',
      `http://127.0.0.1:${server?.port}`,
      '--key',
      String(keyId),
      '--token',
      OPERATOR_TOKEN,
      '--from',
      from,
      '--to',
      to,
      '--out',
      out,
    ]);
    return { run, html: run.code === 2 ? '' : readFileSync(out, 'utf8') };
  } finally {
    await t.app.stop();
  }
}
