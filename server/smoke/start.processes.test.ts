import { describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `npm start` as a newcomer runs it: embedded database, demo printed, curl line works, SIGTERM stops cleanly. */
describe('npm start on an empty data dir', () => {
  it('prints a demo whose curl line returns the demo properties, and shuts down on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qc-start-'));
    const proc = Bun.spawn([process.execPath, 'server/main.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        QC_DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        QC_OPERATOR_TOKEN: '',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    try {
      let out = '';
      const decoder = new TextDecoder();
      const reader = proc.stdout.getReader();
      const deadline = Date.now() + 60_000;
      while (!out.includes('Docs:') && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        out += decoder.decode(value);
      }
      const curl = out.match(/curl -s (\S+\/v1\/qc\/properties) -H 'Authorization: Bearer (qc_\S+)'/);
      expect(curl).not.toBeNull();
      const [, url, token] = curl as RegExpMatchArray;
      const res = await fetch(url as string, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { properties: { mode: string }[] } };
      expect(body.data.properties.map((p) => p.mode).sort()).toEqual(['live', 'shadow']);
      expect(out).toContain('Operator token');

      proc.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    } finally {
      proc.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
