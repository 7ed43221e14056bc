import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunSummary } from './compare/score.ts';
import { CorpusWriter } from './corpus/corpus-writer.ts';
import { jsonExchange } from './testing/exchanges.ts';
import { runHarness } from './testing/harness-cli.ts';

/**
 * The `compare` command and the exit statuses, through the CLI in its own process. The corpora stand for three
 * answers of the same ten getBookings requests: the legacy service's (primary), the legacy service's again
 * (secondary: only the generation timestamp moved) and a candidate's.
 */
const dir = mkdtempSync(join(tmpdir(), 'qc-harness-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const URL = 'http://legacy/api/pms/v1/booking/getBookings?api_key=k';
const body = (at: string, status = 'confirmed') =>
  `{"generated_at":"${at}","data":[{"booking_id":161307,"status":"${status}","price":240.0}]}`;

async function corpus(name: string, bodies: string[]): Promise<string> {
  const file = join(dir, name);
  const writer = await CorpusWriter.open(file);
  for (const b of bodies) await writer.append(jsonExchange(URL, b));
  await writer.close();
  return file;
}

let primary: string;
let secondary: string;
let candidate: string;
beforeAll(async () => {
  const at = (run: number, i: number) => `2026-11-22T10:0${run}:${String(i).padStart(2, '0')}Z`;
  const ten = Array.from({ length: 10 }, (_, i) => i);
  primary = await corpus(
    'primary.jsonl',
    ten.map((i) => body(at(0, i))),
  );
  secondary = await corpus(
    'secondary.har',
    ten.map((i) => body(at(1, i))),
  );
  // The candidate's timestamps differ everywhere; exchange 4 also differs in a real field.
  candidate = await corpus(
    'candidate.jsonl',
    ten.map((i) => body(at(2, i), i === 4 ? 'cancelled' : 'confirmed')),
  );
});

describe('compare', () => {
  it('marks a field that varies between primary and secondary as noise and does not count it', async () => {
    const run = await runHarness(['compare', primary, candidate, '--secondary', secondary, '--json', '-']);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as RunSummary;
    expect(summary).toMatchObject({ exchanges: 10, identical: 0, noise_only: 9, different: 1, failed: 0, score: 0.1 });
    expect(summary.differences).toEqual([
      {
        index: 4,
        method: 'GET',
        // The api_key redacted, as in every output by default.
        url: URL.replace('api_key=k', 'api_key=REDACTED'),
        status: { recorded: 200, replayed: 200 },
        class: 'value',
        severity: 2,
        fields: [{ path: '$.data[0].status', recorded: 'confirmed', replayed: 'cancelled', class: 'value' }],
      },
    ]);
    expect(run.stderr).toContain('noise GET /api/pms/v1/booking/getBookings: $.generated_at x10 (noise)');
  });

  it('without a secondary, holds the varying timestamp against every exchange', async () => {
    const run = await runHarness(['compare', primary, candidate, '--json', '-']);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as RunSummary;
    expect(summary).toMatchObject({ exchanges: 10, different: 10, noise_only: 0, score: 1 });
    expect(summary.endpoints[0]?.fields.map((f) => [f.path, f.count])).toEqual([
      ['$.generated_at', 10],
      ['$.data[*].status', 1],
    ]);
  });

  it('exits 0 when nothing differs beyond noise and ignore rules', async () => {
    const rules = join(dir, 'ignore.txt');
    writeFileSync(rules, '# the candidate cancels on purpose\nGET /api/pms/v1/booking/getBookings $.data[*].status\n');
    const run = await runHarness(['compare', primary, candidate, '--secondary', secondary, '--ignore', rules]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('10 exchanges');
    expect(run.stdout).toContain('0 different, 0 failed. Score 0 %.');
    // Which rule forgave what, and how often: the cancellation of exchange 4 only.
    expect(run.stdout).toContain(
      'ignore rule GET /api/pms/v1/booking/getBookings $.data[*].status: forgave 1 exchange (first #4 $.data[0].status)',
    );
    const json = await runHarness([
      'compare',
      primary,
      candidate,
      '--secondary',
      secondary,
      '--ignore',
      rules,
      '--json',
      '-',
    ]);
    expect((JSON.parse(json.stdout) as RunSummary).ignore_rules).toEqual([
      {
        rule: 'GET /api/pms/v1/booking/getBookings $.data[*].status',
        exchanges: 1,
        sample: { path: '$.data[0].status', index: 4 },
      },
    ]);
    expect((await runHarness(['compare', primary, primary])).code).toBe(0);
  });
});

describe('exit status 2: bad usage or unreadable input, with a message naming the file and entry', () => {
  it('refuses missing arguments, unknown options and commands', async () => {
    for (const args of [
      ['compare', primary],
      ['replay', primary],
      ['frobnicate'],
      ['compare', primary, primary, '--nope'],
      [],
    ]) {
      const run = await runHarness(args);
      expect(run.code).toBe(2);
      expect(run.stderr).not.toBe('');
    }
    expect((await runHarness(['replay', primary, '--target', 'x', '--concurrency', '0'])).stderr).toContain(
      "option '--concurrency <n>' argument '0' is invalid",
    );
    expect((await runHarness(['--help'])).code).toBe(0);
  });

  it('names the unreadable corpus, entry or rule', async () => {
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(
      broken,
      `${JSON.stringify({ request: { method: 'GET', url: URL }, response: { status: 200, content: { text: '{}' } } })}\n{"request":{}}\n`,
    );
    const badRules = join(dir, 'bad-rules.txt');
    writeFileSync(badRules, 'GET /api/pms/v1/booking/getBookings\n');
    const short = await corpus('short.jsonl', [body('x')]);
    const cases: Array<[string[], string]> = [
      [['compare', join(dir, 'absent.har'), primary], `harness: ${join(dir, 'absent.har')}: no such file`],
      [['compare', broken, broken], `harness: ${broken}:2: entry 1: request.method missing`],
      [
        ['compare', primary, primary, '--ignore', badRules],
        `harness: ${badRules}: line 1: expected "METHOD PATH FIELD"`,
      ],
      [['compare', primary, short], `harness: ${short}: ends at entry 1, ${primary} has more entries`],
      [
        ['compare', primary, primary, '--secondary', short],
        `harness: ${short}: entry 1: the secondary recording ends here`,
      ],
      [['replay', primary, '--target', 'localhost:1'], 'harness: --target localhost:1: not an http(s) URL'],
      // Nothing listening: said so, not "does not answer dry runs" (which sends the engineer after the wrong fault).
      [['replay', primary, '--target', 'http://127.0.0.1:1'], 'harness: --target http://127.0.0.1:1: no answer ('],
      [
        ['replay', primary, '--target', 'http://127.0.0.1:1', '--key-map', 'nonsense'],
        'neither a readable file nor RECORDED=REPLAYED',
      ],
      // The system's own words, with what they name, not "unexpected failure" and a stack trace.
      [['compare', primary, primary, '--json', join(dir, 'missing', 'x.json')], `${join(dir, 'missing', 'x.json')}`],
      [['report', '--from-service', 'notaurl', '--key', '2', '--out', 'r.html', '--token', 't'], 'not a URL'],
      [
        ['report', '--from-service', 'http://127.0.0.1:1', '--key', '2', '--out', 'r.html', '--token', 't'],
        'harness: http://127.0.0.1:1: no answer',
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runHarness(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toContain('unexpected failure');
      expect(run.stderr).not.toMatch(/^\s+at /m);
    }
  });
});
