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
let baseUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  let t: Awaited<ReturnType<typeof startServedTestApp>>['t'];
  ({ t, baseUrl, stop } = await startServedTestApp());
  demo = await t.demo();
});
afterAll(() => stop());

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
