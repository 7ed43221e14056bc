import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../server/demo/demo.ts';
import { startServedTestApp, type TestApp } from '../server/testing/harness.ts';

/**
 * Issue 28 item 19, through the command a partner types: `npm run webhook:listen -- --token <token>` had npm
 * echo the whole token with the command line, and a service without QC_WEBHOOK_ALLOW_PRIVATE=1 answered a clear
 * sentence that came out wrapped in a stack trace. The token now comes from TOKEN, the failure is one line.
 */
let t: TestApp;
let demo: Demo;
let baseUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ t, baseUrl, stop } = await startServedTestApp({ env: { QC_WEBHOOK_ALLOW_PRIVATE: '0' } }));
  demo = await t.demo();
});
afterAll(() => stop());

describe('npm run webhook:listen against a service that may not deliver to this machine', () => {
  it('takes the token from TOKEN, never prints it, and says what to do in one line without a stack trace', async () => {
    const proc = Bun.spawn(['npm', 'run', 'webhook:listen', '--', '--base', baseUrl, '--port', '0'], {
      env: { ...process.env, TOKEN: demo.personal_token },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).toBe(1);
    expect(`${out}${err}`).not.toContain(demo.personal_token);
    expect(err).toContain('QC_WEBHOOK_ALLOW_PRIVATE=1');
    expect(err).not.toMatch(/^\s+at /m);
  }, 60_000);
});
