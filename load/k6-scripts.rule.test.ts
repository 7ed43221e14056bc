import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Demo } from '../server/demo/demo.ts';
import { startServedTestApp } from '../server/testing/harness.ts';

/**
 * Issue 28 item 14: load/inventory-push.k6.js threw `ReferenceError: token is not defined` in setup() and
 * nothing checked the k6 scripts. Every script now type-checks against @types/k6 (load/tsconfig.json) and runs
 * a few iterations through load/k6-stand-in.ts against a real test server, so a broken script fails here.
 */
const scripts = readdirSync(import.meta.dir).filter((name) => name.endsWith('.k6.js'));
let demo: Demo;
let t: Awaited<ReturnType<typeof startServedTestApp>>['t'];
let baseUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ t, baseUrl, stop } = await startServedTestApp());
  demo = await t.demo();
});
afterAll(() => stop());

/** A throwaway script run through the stand-in. */
async function script(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'k6-script-'));
  try {
    const file = join(dir, 'script.k6.js');
    writeFileSync(file, text);
    return await standIn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function standIn(script: string, env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'k6-stand-in.ts'), script], {
    env: { ...process.env, ITERATIONS: '2', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { out, err, code };
}

describe('the k6 scripts in load/', () => {
  it('type-check against @types/k6', () => {
    const tsc = Bun.spawnSync([
      join(import.meta.dir, '..', 'node_modules', '.bin', 'tsc'),
      '-p',
      join(import.meta.dir, 'tsconfig.json'),
    ]);
    expect(tsc.stdout.toString()).toBe('');
    expect(tsc.exitCode).toBe(0);
  });

  it('find four scripts to run', () => {
    expect(scripts.sort()).toEqual(['feed.k6.js', 'inventory-push.k6.js', 'legacy.k6.js', 'reads.k6.js']);
  });

  for (const script of scripts) {
    it(`${script} runs setup, a few iterations of every scenario and teardown against the test server`, async () => {
      const legacy = demo.legacy as { api_key: string; room_ids: number[] };
      const run = await standIn(join(import.meta.dir, script), {
        BASE_URL: baseUrl,
        CLIENT_ID: demo.client.client_id,
        CLIENT_SECRET: demo.client.client_secret,
        PROPERTY: demo.properties[0]?.partner_code as string,
        API_KEY: legacy.api_key,
        ROOM_IDS: legacy.room_ids.join(','),
        ROWS: '3',
        DAYS: '2',
      });
      expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
      expect(run.out).toMatch(/\d+ iterations .* checks \d+ passed \/ 0 failed/);
    }, 60_000);
  }

  it('fails a script that throws in setup, as inventory-push.k6.js did', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-broken-'));
    try {
      const broken = join(dir, 'broken.k6.js');
      writeFileSync(
        broken,
        "import http from 'k6/http';\nexport function setup() { return { token: token.json('access_token') }; }\nexport default function () { http.get('http://127.0.0.1:9'); }\n",
      );
      const run = await standIn(broken);
      expect(run.code).not.toBe(0);
      expect(run.err).toContain('token is not defined');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('legacy.k6.js takes the room ids getPropertySettings lists when ROOM_IDS is not given', async () => {
    const legacy = demo.legacy as { api_key: string };
    const run = await standIn(join(import.meta.dir, 'legacy.k6.js'), {
      BASE_URL: baseUrl,
      API_KEY: legacy.api_key,
      ROOM_IDS: '',
      ROWS: '3',
      DAYS: '2',
    });
    expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
    expect(run.out).toMatch(/checks [1-9]\d* passed \/ 0 failed/);
  }, 60_000);

  it('fails a check whose answer is not what it names, instead of passing or crashing', async () => {
    // Something else than the legacy service answering 200 (a proxy's page): the checks looked at the status alone
    // (and an `error` field legacy answers never have), so they passed.
    const elsewhere = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => Response.json({ status: 'ok' }) });
    try {
      const legacy = await standIn(join(import.meta.dir, 'legacy.k6.js'), {
        BASE_URL: `http://127.0.0.1:${elsewhere.port}`,
        API_KEY: 'any',
        ROOM_IDS: '1',
        ROWS: '1',
        DAYS: '1',
      });
      expect(legacy.err).toContain('check failed: bookings read');
      expect(legacy.err).toContain('check failed: availability updated');
      expect(legacy.out).toContain('checks 0 passed / 4 failed');
    } finally {
      await elsewhere.stop(true);
    }
    // A client that may read but not push: setup finds the rooms and plans, each push answers 403 in the error
    // envelope, which has no `data`.
    const reader = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], account_scoped: true });
    const push = await standIn(join(import.meta.dir, 'inventory-push.k6.js'), {
      BASE_URL: baseUrl,
      CLIENT_ID: reader.client_id,
      CLIENT_SECRET: reader.client_secret,
      PROPERTY: demo.properties[0]?.partner_code as string,
      ROWS: '1',
      DAYS: '1',
    });
    expect(push.err).toContain('check failed: every day-row accounted for');
    expect(push.err).not.toContain('TypeError');
    // The token's check passes; every push fails both of its own.
    expect(push.out).toContain('checks 1 passed / 12 failed');
  }, 60_000);

  it('fails a script that tags its own samples with a k6 system tag, as legacy.k6.js did with `method`', async () => {
    const run = await script(
      "import http from 'k6/http';\n" +
        "export const options = { scenarios: { reads: { executor: 'shared-iterations', exec: 'reads', tags: { method: 'reads' } } },\n" +
        "  thresholds: { 'http_req_duration{method:reads}': ['p(95)<250'] } };\n" +
        'export function reads() {}\n',
    );
    expect(run.code).toBe(1);
    expect(run.err).toContain('tag method is a k6 system tag');
    expect(run.err).toContain('threshold http_req_duration{method:reads} filters the k6 system tag method');
  });

  it("fails a threshold left on a system tag for the script's own tag value, or on a tag nothing carries", async () => {
    const run = await script(
      "import http from 'k6/http';\n" +
        "export const options = { scenarios: { reads: { executor: 'shared-iterations', exec: 'reads', tags: { op: 'reads' } } },\n" +
        "  thresholds: { 'http_req_duration{status:reads}': ['p(95)<250'], 'http_req_duration{opp:reads}': ['p(95)<250'] } };\n" +
        'export function reads() {}\n',
    );
    expect(run.code).toBe(1);
    expect(run.err).toContain('threshold http_req_duration{status:reads} filters the k6 system tag status');
    expect(run.err).toContain('threshold http_req_duration{opp:reads} filters on tag opp, which nothing');
    expect(run.err).not.toContain('tag op is');
  });

  it('takes system-tag filters for values k6 gives them, and a `name` the script sets', async () => {
    const run = await script(
      "import http from 'k6/http';\nimport { check } from 'k6';\n" +
        "export const options = { scenarios: { reads: { executor: 'shared-iterations', exec: 'reads', tags: { op: 'reads' } } },\n" +
        "  thresholds: { 'http_req_duration{method:GET}': ['p(95)<250'], 'http_req_duration{scenario:reads}': ['p(95)<250'],\n" +
        "    'checks{check:reads}': ['rate>0.5'], 'http_req_duration{name:x}': ['p(95)<250'], 'http_req_duration{op:reads}': ['p(95)<250'] } };\n" +
        `export function reads() { check(http.get('${baseUrl}/healthz', { tags: { name: 'x' } }), { reads: (r) => r.status === 200 }); }\n`,
    );
    expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
  });

  it('fails a threshold on a metric no script defines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'k6-threshold-'));
    try {
      const script = join(dir, 'threshold.k6.js');
      writeFileSync(
        script,
        "export const options = { thresholds: { feed_pol_ms: ['p(99)<100'] } };\nexport default function () {}\n",
      );
      const run = await standIn(script);
      expect(run.code).toBe(1);
      expect(run.err).toContain('threshold on unknown metric feed_pol_ms');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
