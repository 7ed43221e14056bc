import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../server/testing/free-port.ts';
import type { Exchange } from './compare/exchange.ts';
import type { RunSummary } from './compare/score.ts';
import { toHarEntry } from './corpus/har.ts';
import { readCorpus } from './corpus/read-corpus.ts';
import { runHarness, startHarness } from './testing/harness-cli.ts';
import { type LegacyDemo, LegacyPort } from './testing/legacy-port.ts';
import { ackCalls, legacyUrl, replayableCalls, type SessionCall, send, settle } from './testing/pms-session.ts';

/**
 * The harness through real processes: `bun server/main.ts` on PostgreSQL, the harness CLI in its own process
 * (record, serve, replay), PMS calls over HTTP. Each test takes a fresh demo customer, so the state one test
 * writes (acks) never reaches another.
 */
let port: LegacyPort;
let dir: string;

beforeAll(async () => {
  port = await LegacyPort.start();
  dir = mkdtempSync(join(tmpdir(), 'qc-harness-'));
}, 60_000);
afterAll(async () => {
  expect(await port?.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

async function corpusOf(file: string): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  for await (const exchange of readCorpus(file)) exchanges.push(exchange);
  return exchanges;
}

interface Answer {
  status: number;
  contentType: string | null;
  bytes: Uint8Array;
}

async function answerOf(res: Response): Promise<Answer> {
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

/** Sends the calls through a recording proxy in front of the port; answers what the PMS got back. */
async function record(file: string, demo: LegacyDemo, calls: (base: string) => Promise<SessionCall[]>) {
  await settle(port.url, demo);
  const proxy = await startHarness(['record', '--upstream', port.url, '--out', file]);
  const answers: Answer[] = [];
  for (const call of await calls(proxy.url)) answers.push(await answerOf(await send(proxy.url, demo.api_key, call)));
  expect(await proxy.stop()).toBe(0);
  return answers;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('record', () => {
  it('forwards each legacy call unchanged and records exchanges whose bytes equal a direct call', async () => {
    const demo = await port.demo();
    const file = join(dir, 'direct.har');
    const calls = replayableCalls(demo);
    const viaProxy = await record(file, demo, async () => calls);
    const direct: Answer[] = [];
    for (const call of calls) direct.push(await answerOf(await send(port.url, demo.api_key, call)));

    const corpus = await corpusOf(file);
    expect(corpus).toHaveLength(calls.length);
    corpus.forEach((exchange, i) => {
      const call = calls[i] as SessionCall;
      expect(exchange.method).toBe(call.method);
      expect(exchange.url).toBe(legacyUrl(port.url, demo.api_key, call));
      expect(exchange.requestBody ? text(exchange.requestBody) : undefined).toBe(call.body);
      // What the PMS got through the proxy, what the corpus holds, and what a direct call answers: the same bytes.
      expect(viaProxy[i]).toEqual({
        status: exchange.status,
        contentType: 'application/json',
        bytes: exchange.responseBody,
      });
      expect(direct[i]).toEqual(viaProxy[i] as Answer);
    });
    expect(corpus.map((e) => e.status)).toContain(404);
  }, 60_000);

  it('leaves a valid corpus holding every completed exchange when it is killed', async () => {
    const demo = await port.demo();
    for (const file of [join(dir, 'killed.har'), join(dir, 'killed.jsonl')]) {
      const proxy = await startHarness(['record', '--upstream', port.url, '--out', file]);
      const calls = replayableCalls(demo).slice(0, 3);
      for (const call of calls) await (await send(proxy.url, demo.api_key, call)).arrayBuffer();
      expect(await proxy.crash()).not.toBe(0);
      expect((await corpusOf(file)).map((e) => e.url)).toEqual(calls.map((c) => legacyUrl(port.url, demo.api_key, c)));
    }
  }, 60_000);

  it('masks the --redact query parameters and JSON paths in what it writes, not in what the PMS gets', async () => {
    const demo = await port.demo();
    const file = join(dir, 'redacted.jsonl');
    const proxy = await startHarness([
      'record',
      '--upstream',
      port.url,
      '--out',
      file,
      '--redact',
      'api_key',
      '--redact',
      '$.data[*].client',
    ]);
    const res = await send(proxy.url, demo.api_key, { method: 'GET', path: 'booking/getBookings' });
    const got = await res.text();
    expect(await proxy.stop()).toBe(0);
    const [exchange] = await corpusOf(file);
    expect(got).toContain('"client":{"first_name"');
    expect(exchange?.url).toEndWith('/api/pms/v1/booking/getBookings?api_key=REDACTED');
    const written = text(exchange?.responseBody as Uint8Array);
    expect(written).toContain('"client":"REDACTED","booking_items"');
    expect(written).not.toContain('first_name');
    // Every byte outside the masked values is as the port sent it.
    expect(written).toBe(got.replace(/"client":\{[^}]*\}/g, '"client":"REDACTED"'));
  }, 60_000);
});

describe('serve', () => {
  it('answers the recorded requests byte for byte, the n-th identical request with the n-th recorded answer', async () => {
    const demo = await port.demo();
    const file = join(dir, 'acks.jsonl');
    const sent: SessionCall[] = [];
    const recorded = await record(file, demo, async (base) => {
      const getBookings: SessionCall = { method: 'GET', path: 'booking/getBookings' };
      const tail = await ackCalls(base, demo); // its first getBookings goes through the proxy too
      sent.push(getBookings, ...tail);
      return tail;
    });
    const corpus = await corpusOf(file);
    expect(corpus).toHaveLength(sent.length);

    const stand = await startHarness(['serve', file]);
    const served: Answer[] = [];
    for (const call of sent) served.push(await answerOf(await send(stand.url, demo.api_key, call)));
    const again = await answerOf(await send(stand.url, demo.api_key, sent.at(-1) as SessionCall));
    const unknown = await fetch(`${stand.url}/api/pms/v1/booking/getBookings?api_key=other`);
    expect(await stand.stop()).toBe(0);

    expect(served).toEqual(
      corpus.map((e) => ({ status: e.status, contentType: 'application/json', bytes: e.responseBody })),
    );
    expect(served.slice(1)).toEqual(recorded);
    // getBookings before the acks lists the bookings, the same request after them lists none.
    const getBookings = sent.flatMap((call, i) => (call.path === 'booking/getBookings' && !call.query ? [i] : []));
    expect(getBookings).toHaveLength(2);
    expect(text(served[getBookings[0] as number]?.bytes as Uint8Array)).toContain('"revision_id"');
    expect(text(served[getBookings[1] as number]?.bytes as Uint8Array)).toBe('{"data":[]}');
    // The second ack of the same revision was refused, and is served so again past the end of the recording.
    expect(text(served.at(-1)?.bytes as Uint8Array)).toContain('The ack was already sent!');
    expect(again).toEqual(served.at(-1) as Answer);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-harness-unmatched')).toBe('1');
  }, 60_000);
});

describe('replay', () => {
  // Reads and absolute writes answer the same when sent again in the same order against the same state, so a
  // replay of them against the port they were recorded from must score exactly 0. (Acks cannot: the second ack
  // of a revision is refused by design; the serve test covers them.)
  it('scores 0 replaying a corpus recorded from the port against the same port', async () => {
    const demo = await port.demo();
    const file = join(dir, 'replayable.har');
    await record(file, demo, async () => replayableCalls(demo));
    const json = join(dir, 'replay.json');
    const run = await runHarness(['replay', file, '--target', port.url, '--json', json, '--concurrency', '3']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(readFileSync(json, 'utf8')) as RunSummary;
    const n = replayableCalls(demo).length;
    expect(Object.keys(summary)).toEqual([
      'exchanges',
      'identical',
      'different',
      'noise_only',
      'failed',
      'score',
      'classes',
      'endpoints',
      'differences',
      'ignore_rules',
      'correspondence',
    ]);
    expect(summary).toMatchObject({
      exchanges: n,
      identical: n,
      different: 0,
      noise_only: 0,
      failed: 0,
      score: 0,
      differences: [],
    });
    expect(summary.endpoints.reduce((sum, e) => sum + e.exchanges, 0)).toBe(n);
    expect(run.stdout).toContain(`${n} exchanges`);
  }, 60_000);

  it('rewrites api_key through the key map, and reports exactly the planted differences', async () => {
    const demo = await port.demo();
    const recordedFrom = await port.demo(); // recorded with this key; replayed with demo's through the key map
    const original = join(dir, 'plant-source.har');
    await record(original, demo, async () => replayableCalls(demo));
    const corpus = await corpusOf(original);
    const encode = (s: string) => new TextEncoder().encode(s);
    const planted = corpus.map((exchange, i) => {
      const body = text(exchange.responseBody);
      const url = exchange.url.replace(demo.api_key, recordedFrom.api_key);
      if (i === 1)
        return { ...exchange, url, responseBody: encode(body.replace('"sqm_area":22.0', '"sqm_area":23.0')) };
      if (i === 6) return { ...exchange, url, responseHeaders: [['content-type', 'text/html']] as const };
      if (i === 7) return { ...exchange, url, status: 201 };
      if (i === 9) return { ...exchange, url, responseBody: encode(body.replace('"sqm_area":', '"sqm_area" :')) };
      return { ...exchange, url };
    });
    expect(text(planted[1]?.responseBody as Uint8Array)).toContain('"sqm_area":23.0');
    const file = join(dir, 'planted.jsonl');
    writeFileSync(file, planted.map((e) => `${JSON.stringify(toHarEntry(e))}\n`).join(''));

    const run = await runHarness([
      'replay',
      file,
      '--target',
      port.url,
      '--key-map',
      `${recordedFrom.api_key}=${demo.api_key}`,
      '--json',
      '-',
    ]);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as RunSummary;
    expect(summary).toMatchObject({ exchanges: corpus.length, different: 4, failed: 0, noise_only: 0 });
    expect(summary.identical).toBe(corpus.length - 4);
    expect(summary.score).toBe(4 / corpus.length);
    // Most severe first, then by index.
    expect(summary.differences.map((d) => [d.index, d.class, d.fields.map((f) => f.path)])).toEqual([
      [7, 'status', ['status']],
      [1, 'value', ['$.data[0].sqm_area']],
      [6, 'value', ['headers.content-type']],
      [9, 'representation', ['body']],
    ]);
    expect(summary.differences[1]?.fields[0]).toEqual({
      path: '$.data[0].sqm_area',
      recorded: 23,
      replayed: 22,
      class: 'value',
    });
    expect(summary.differences[0]?.status).toEqual({ recorded: 201, replayed: 200 });
    expect(summary.differences[3]?.fields[0]).toMatchObject({ path: 'body', offset: expect.any(Number) });
    const rooms = summary.endpoints.find((e) => e.path === '/api/pms/v1/property/getRoomsDetails');
    expect(rooms).toMatchObject({ exchanges: 2, different: 2 });
    expect(rooms?.fields.map((f) => [f.path, f.count])).toEqual([
      ['$.data[*].sqm_area', 1],
      ['body', 1],
    ]);
  }, 60_000);

  it('counts an exchange the target does not answer as failed', async () => {
    const demo = await port.demo();
    const file = join(dir, 'one.har');
    await record(file, demo, async () => replayableCalls(demo).slice(0, 1));
    const closed = `http://127.0.0.1:${freePort()}`; // nothing listens there
    // Without --allow-writes a target that does not answer cannot be asked for dry runs: refused before anything.
    expect((await runHarness(['replay', file, '--target', closed])).code).toBe(2);
    const run = await runHarness(['replay', file, '--target', closed, '--allow-writes', '--json', '-']);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as RunSummary;
    expect(summary).toMatchObject({ exchanges: 1, failed: 1, score: 1 });
    expect(summary.differences[0]).toMatchObject({ index: 0, status: { recorded: 200, replayed: null } });
    expect(summary.differences[0]?.fields[0]?.path).toBe('error');
  }, 60_000);
});
