import { describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `npm start` as a newcomer runs it: embedded database, demo printed, curl line works, SIGTERM stops cleanly. */
/** `bun server/main.ts` on an embedded data dir, and what it printed up to (and including) the line matching `until`. */
async function start(dataDir: string, until: RegExp, env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      QC_DATA_DIR: dataDir,
      DATABASE_URL: '',
      DATABASE_SESSION_URL: '',
      REDIS_URL: '',
      QC_OPERATOR_TOKEN: '',
      ...env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let out = '';
  const decoder = new TextDecoder();
  const reader = proc.stdout.getReader();
  const deadline = Date.now() + 60_000;
  while (!until.test(out) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    out += decoder.decode(value);
  }
  reader.releaseLock();
  return { proc, out };
}

describe('npm start on an empty data dir', () => {
  it('prints a demo whose curl line works, stops on SIGTERM, and on restart says where things are and how to get a new secret for that demo', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qc-start-'));
    const { proc, out } = await start(dataDir, /Docs:/);
    try {
      const curl = out.match(/curl -s (\S+\/v1\/qc\/properties) -H 'Authorization: Bearer (qc_\S+)'/);
      expect(curl).not.toBeNull();
      const [, url, token] = curl as RegExpMatchArray;
      const res = await fetch(url as string, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { properties: { mode: string }[] } };
      expect(body.data.properties.map((p) => p.mode).sort()).toEqual(['live', 'shadow']);
      expect(out).toContain('Operator token');
      const demoClient = out.match(/OAuth client_id: +(qcc_\S+)/)?.[1];
      expect(demoClient).toBeDefined();
      // The README suggests POST /ops/demo for more demos: the restart must still name the one printed above,
      // not the newest (its rotate line changed another customer's secret).
      const operatorToken = readFileSync(join(dataDir, 'operator-token'), 'utf8').trim();
      const more = await fetch(new URL('/ops/demo', url as string), {
        method: 'POST',
        headers: { authorization: `Bearer ${operatorToken}` },
      });
      expect(more.status).toBe(200);
      const other = ((await more.json()) as { data: { client: { client_id: string } } }).data.client.client_id;
      expect(other).not.toBe(demoClient);

      proc.kill('SIGTERM');
      expect(await proc.exited).toBe(0);

      // Issue 28 item 15: a restart printed nothing; it says where things are and how to get a fresh secret.
      const again = await start(dataDir, /ops\/demo .*\n/);
      try {
        const base = again.out.match(/Hotel Connectivity Service on (\S+)/)?.[1] as string;
        expect(again.out).toContain(`Docs: ${base}/v1/qc/docs`);
        expect(again.out).toContain(`Operator token (for /ops): kept in ${join(dataDir, 'operator-token')}`);
        expect(again.out).toContain('cannot be shown again');
        const rotate = again.out.match(
          /curl -s -X POST (\S+\/ops\/clients\/(qcc_\S+)\/rotate-secret) -H "Authorization: Bearer \$\(cat (\S+)\)"/,
        );
        expect(rotate).not.toBeNull();
        const [, rotateUrl, clientId, tokenFile] = rotate as RegExpMatchArray;
        expect(clientId).toBe(demoClient);
        const operator = readFileSync(tokenFile as string, 'utf8').trim();
        const rotated = await fetch(rotateUrl as string, {
          method: 'POST',
          headers: { authorization: `Bearer ${operator}` },
        });
        expect(rotated.status).toBe(200);
        const secret = ((await rotated.json()) as { data: { client_secret: string } }).data.client_secret;
        const token = await fetch(`${base}/v1/qc/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: clientId as string,
            client_secret: secret,
          }),
        });
        expect(token.status).toBe(200);
      } finally {
        again.proc.kill('SIGTERM');
        await again.proc.exited;
      }
    } finally {
      proc.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('the operator token line of a start on a database without customers', () => {
  it('prints a token only when it generated it, and otherwise says where the token is', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qc-start-'));
    const file = join(dataDir, 'operator-token');
    const quiet = { QC_DEMO_ON_EMPTY: '0', QC_RETENTION_EVERY_MINUTES: '0' };
    const stop = async ({ proc }: { proc: ReturnType<typeof Bun.spawn> }) => {
      proc.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    };
    try {
      const generated = await start(dataDir, /generated now and kept in .*\n/, quiet);
      await stop(generated);
      const token = readFileSync(file, 'utf8').trim();
      expect(generated.out).toContain(`Operator token (for /ops): ${token}\n  (generated now and kept in ${file})`);

      // It used to echo a token given through the environment, and say it was kept in a file never written.
      const given = 'operator-token-from-the-environment';
      const fromEnv = await start(dataDir, /Operator token.*\n/, { ...quiet, QC_OPERATOR_TOKEN: given });
      await stop(fromEnv);
      expect(fromEnv.out).toContain('Operator token (for /ops): the QC_OPERATOR_TOKEN you set\n');
      expect(fromEnv.out).not.toContain(given);

      // The file of an earlier start: named, not printed.
      const kept = await start(dataDir, /Operator token.*\n/, quiet);
      await stop(kept);
      expect(kept.out).toContain(`Operator token (for /ops): kept in ${file}\n`);
      expect(kept.out).not.toContain(token);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
