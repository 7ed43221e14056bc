import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { openHeadlessPage } from '../server/testing/headless-chromium.ts';
import type { FinishedRun } from './commands/finish-run.ts';
import type { Exchange } from './compare/exchange.ts';
import { toHarEntry } from './corpus/har.ts';
import { readCorpus } from './corpus/read-corpus.ts';
import { runHarness, startHarness } from './testing/harness-cli.ts';
import { type LegacyDemo, LegacyPort } from './testing/legacy-port.ts';
import { replayableCalls, send, settle } from './testing/pms-session.ts';

/**
 * The harness on a real corpus, as a migration engineer runs it: recorded from one installation (a demo
 * customer) and replayed through the CLI on another (another demo: every room, rate, booking and key has another
 * id), with differences planted in the recording, one of each class. The ids are learnt and mapped, the planted
 * differences are found and ranked and nothing else is reported, no key or guest e-mail reaches any output, and
 * the default replay leaves every table of the target as it was.
 */
let port: LegacyPort;
let dir: string;
let sql: postgres.Sql;

beforeAll(async () => {
  port = await LegacyPort.start();
  dir = mkdtempSync(join(tmpdir(), 'qc-harness-real-'));
  if (process.env.DATABASE_URL) sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
}, 60_000);
afterAll(async () => {
  await sql?.end();
  expect(await port?.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const encode = (body: string) => new TextEncoder().encode(body);

async function corpusOf(file: string): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  for await (const exchange of readCorpus(file)) exchanges.push(exchange);
  return exchanges;
}

/**
 * Every table a legacy call can write, as a row count and a digest of the rows. Read over PostgreSQL: on the
 * embedded default (npm run test:embedded) the port's tables live inside its process, and "writes nothing" is
 * checked by the PostgreSQL runs only.
 */
async function tableDigests(): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  if (!sql) return digests;
  for (const table of [
    'availability',
    'bookings',
    'booking_rooms',
    'legacy_booking_revisions',
    'legacy_customer_events',
    'legacy_pms_property_data',
    'legacy_endpoint_usage',
    'legacy_shadow_days',
    'outbox_events',
  ]) {
    const [row] = await sql.unsafe(
      `select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as digest from ${table} x`,
    );
    digests[table] = `${row?.n} ${row?.digest}`;
  }
  return digests;
}

/** The session recorded from `demo` through `harness record`, after `settle` made its state a fixed point. */
async function recordSession(demo: LegacyDemo, file: string): Promise<Exchange[]> {
  await settle(port.url, demo);
  const proxy = await startHarness(['record', '--upstream', port.url, '--out', file]);
  for (const call of replayableCalls(demo)) await (await send(proxy.url, demo.api_key, call)).arrayBuffer();
  expect(await proxy.stop()).toBe(0);
  return corpusOf(file);
}

function writeJsonl(file: string, exchanges: Exchange[]): string {
  writeFileSync(file, exchanges.map((e) => `${JSON.stringify(toHarEntry(e))}\n`).join(''));
  return file;
}

/** Replaces `from` by `to` in the recorded answer of the exchange at `index`, which must contain it. */
function plant(exchanges: Exchange[], index: number, from: string, to: string): void {
  const exchange = exchanges[index] as Exchange;
  const body = text(exchange.responseBody);
  expect(body).toContain(from);
  exchanges[index] = { ...exchange, responseBody: encode(body.replace(from, to)) };
}

const path = (e: Exchange) => new URL(e.url).pathname.replace('/api/pms/v1/', '');

describe('a corpus recorded on one installation, replayed on another', () => {
  it('maps the ids, finds exactly the planted differences ranked by class, redacts every output, writes nothing', async () => {
    const recordedFrom = await port.demo();
    const target = await port.demo();
    await settle(port.url, target);
    expect(target.room_ids[0]).not.toBe(recordedFrom.room_ids[0]);
    const corpus = await recordSession(recordedFrom, join(dir, 'recorded.jsonl'));
    const at = (name: string, nth = 0) =>
      corpus.map((e, i) => [path(e), i] as const).filter(([p]) => p === name)[nth]?.[1] as number;

    // One planted difference of each class, in the recording (what "the legacy service" answered).
    const planted = [...corpus];
    const rooms = at('property/getRoomsDetails');
    const otherRoom = at('property/getRoomsDetails', 1);
    const bookings = at('booking/getBookings');
    const sideways = at('booking/getBookings', 2);
    const nothing = at('property/getNothing');
    planted[nothing] = { ...(planted[nothing] as Exchange), status: 400 };
    plant(planted, sideways, "Invalid value for the 'type' parameter!", "Invalid value for the 'type' parameter.");
    plant(planted, otherRoom, '"no_beds":1,', '');
    plant(planted, bookings, '"num_adults":2', '"num_adults":3');
    plant(planted, rooms, '"sqm_area":22.0', '"sqm_area":22');
    const file = writeJsonl(join(dir, 'planted.jsonl'), planted);

    const before = await tableDigests();
    const json = join(dir, 'run.json');
    const report = join(dir, 'run.html');
    const run = await runHarness([
      'replay',
      file,
      '--target',
      port.url,
      '--key-map',
      `${recordedFrom.api_key}=${target.api_key}`,
      '--ignore',
      join(import.meta.dir, 'examples', 'ignore-rules.txt'),
      '--json',
      json,
      '--report',
      report,
    ]);
    // The default replay is a dry run on the target: not one row written, not even the keys' endpoint use.
    expect(await tableDigests()).toEqual(before);
    expect(run.code).toBe(1);

    const summary = JSON.parse(readFileSync(json, 'utf8')) as FinishedRun;
    expect(summary).toMatchObject({ exchanges: corpus.length, different: 5, failed: 0 });
    expect(summary.classes).toEqual({ failed: 0, status: 1, message: 1, field: 1, value: 1, representation: 1 });
    // Exactly the planted ones, most severe first, each with exactly the planted field.
    expect(summary.differences.map((d) => [d.index, d.class, d.fields.map((f) => [f.path, f.class])])).toEqual([
      [nothing, 'status', [['status', 'status']]],
      [sideways, 'message', [['$.message', 'message']]],
      [otherRoom, 'field', [['$.data[0].no_beds', 'field']]],
      [bookings, 'value', [['$.data[0].num_adults', 'value']]],
      [rooms, 'representation', [['body', 'representation']]],
    ]);
    expect(summary.differences.at(-1)?.fields[0]?.detail).toBe('number format');
    // The request as sent: the target's key (redacted) and the target's room, where the recording had its own.
    expect(summary.differences.find((d) => d.index === otherRoom)?.sent).toBe(
      `/api/pms/v1/property/getRoomsDetails?api_key=REDACTED&room_id=${target.room_ids[1]}`,
    );
    // The ids it learnt: the rooms of one demo are the rooms of the other, and nothing contradicted that.
    const mapped = summary.correspondence.mappings.filter((m) => m.kind === 'room');
    expect(mapped.map((m) => [String(m.recorded), String(m.replayed)])).toEqual(
      recordedFrom.room_ids.map((id, i) => [String(id), String(target.room_ids[i])]),
    );
    // The booking button's code too, learnt from getPropertySettings (booking_modules[*].url_key) and sent in
    // getBookingOffers.
    expect(summary.correspondence.mappings).toContainEqual(
      expect.objectContaining({ kind: 'bm_code', recorded: recordedFrom.bm_code, replayed: target.bm_code }),
    );
    expect(summary.correspondence.conflicts).toEqual([]);

    // Nothing secret or personal in any output: keys, guest e-mails (masked to their first letter).
    const html = readFileSync(report, 'utf8');
    const emails = [...text((corpus[bookings] as Exchange).responseBody).matchAll(/"email":"([^"]+)"/g)].map(
      (m) => m[1] as string,
    );
    expect(emails.length).toBeGreaterThan(0);
    for (const output of [run.stdout, run.stderr, readFileSync(json, 'utf8'), html]) {
      for (const secret of [recordedFrom.api_key, target.api_key, ...emails]) expect(output).not.toContain(secret);
    }
    // The guest's booking is in the report, masked (the first letter, then asterisks).
    expect(html).toMatch(/&quot;email&quot;<\/span>: <span class="str">&quot;[a-z]\*+&quot;/);
    // The report as the team opens it: groups most severe first, the ids it mapped, nothing fetched.
    const opened = await openHeadlessPage(`file://${report}`, { onlyOrigin: `file://${report}` });
    try {
      const { page } = opened;
      expect(
        await page.locator('details.group').evaluateAll((groups) => groups.map((g) => g.getAttribute('data-class'))),
      ).toEqual(['status', 'message', 'field', 'value', 'representation']);
      expect(await page.locator('#correspondence table.mapping').innerText()).toContain(
        `room\t${recordedFrom.room_ids[0]}\t${target.room_ids[0]}`,
      );
      expect(opened.requests).toEqual([`file://${report}`]);
      await opened.screenshot('harness-report-real');
    } finally {
      await opened.close();
    }
    // The corpus on disk stays exact, and --no-redact shows it all (a local run).
    expect(readFileSync(file, 'utf8')).toContain(recordedFrom.api_key);
    const local = join(dir, 'local.html');
    const open = await runHarness([
      'compare',
      file,
      file.replace('planted', 'recorded'),
      '--no-redact',
      '--json',
      '-',
      '--report',
      local,
    ]);
    expect(open.stdout).toContain(recordedFrom.api_key);
    expect(readFileSync(local, 'utf8')).toContain(emails[0] as string);
  }, 120_000);

  it('makes the exit status depend on the least severe class that fails the run (--fail-on)', async () => {
    const corpus = await corpusOf(join(dir, 'recorded.jsonl'));
    const representation = [...corpus];
    plant(representation, 1, '"sqm_area":22.0', '"sqm_area":22');
    const file = writeJsonl(join(dir, 'representation.jsonl'), representation);
    const recorded = join(dir, 'recorded.jsonl');
    expect((await runHarness(['compare', recorded, file])).code).toBe(1);
    expect((await runHarness(['compare', recorded, file, '--fail-on', 'value'])).code).toBe(0);
    expect((await runHarness(['compare', recorded, file, '--fail-on', 'representation'])).code).toBe(1);
    expect((await runHarness(['compare', recorded, recorded, '--fail-on', 'nonsense'])).code).toBe(2);
  }, 30_000);

  it('replays the shipped example corpus against a fresh demo with no difference at all (--allow-writes)', async () => {
    const example = join(import.meta.dir, 'examples', 'legacy-session.har');
    const recorded = JSON.parse(readFileSync(example.replace('.har', '.json'), 'utf8')) as {
      api_key: string;
      bm_code: string;
    };
    const fresh = await port.demo();
    const run = await runHarness([
      'replay',
      example,
      '--target',
      port.url,
      '--allow-writes',
      '--key-map',
      `${recorded.api_key}=${fresh.api_key}`,
      '--map',
      `bm_code:${recorded.bm_code}=${fresh.bm_code}`,
      // The demo's bookings are made relative to today: a replay on a later day moves the dates with them.
      '--shift-dates',
      'auto',
      '--ignore',
      join(import.meta.dir, 'examples', 'ignore-rules.txt'),
      '--json',
      '-',
    ]);
    expect(run.stderr).toContain(`--allow-writes: writes are replayed for real against ${port.url}`);
    const summary = JSON.parse(run.stdout) as FinishedRun;
    expect(summary).toMatchObject({ different: 0, failed: 0, score: 0 });
    expect(run.code).toBe(0);
  }, 60_000);

  it('refuses to replay against a target that does not answer dry runs, sending it nothing but the question', async () => {
    const seen: string[] = [];
    const plain = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(request) {
        seen.push(`${request.method} ${new URL(request.url).pathname}`);
        return new Response('{"message":"Success"}');
      },
    });
    try {
      const run = await runHarness([
        'replay',
        join(dir, 'recorded.jsonl'),
        '--target',
        `http://127.0.0.1:${plain.port}`,
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('does not answer dry runs');
      expect(seen).toEqual(['GET /api/pms/v1/']);
    } finally {
      plain.stop(true);
    }
  }, 30_000);
});
