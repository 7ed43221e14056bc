import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { openHeadlessPage } from '../testing/headless-chromium.ts';

/**
 * The API reference as a partner sees it: a real headless Chromium loads /v1/qc/docs with every request to
 * another origin refused (the network is cut off), waits for the operation list, and keeps a screenshot in
 * .artifacts/screenshots/ for people to look at.
 */
let t: TestApp;
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  t = await startTestApp();
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => t.app.handle(request) });
});
afterAll(async () => {
  server.stop(true);
  await t.close();
});

describe('API docs page', () => {
  it('renders the operation list offline, from our own origin only', async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    const opened = await openHeadlessPage(`${origin}/v1/qc/docs`, {
      onlyOrigin: origin,
      viewport: { width: 1400, height: 1000 },
    });
    try {
      const { page } = opened;
      // Operation summaries come from the route definitions; wait until the reference has rendered them.
      await page.getByText('Exchange client credentials for an access token').first().waitFor({ timeout: 20_000 });
      await expect(page.getByText('Public keys that verify access tokens').first().isVisible()).resolves.toBe(true);
      // Opening a tag shows its operations.
      await page.getByText('properties', { exact: true }).first().click();
      await page.getByText('Properties the token may act on').first().waitFor({ timeout: 10_000 });
      await opened.screenshot('api-docs');
      expect(opened.refused).toEqual([]);
    } finally {
      await opened.close();
    }
  }, 60_000);

  it('serves the same document bytes on every fetch, in JSON and YAML alike', async () => {
    const first = await t.request('GET', '/v1/qc/openapi.json');
    const yaml = await t.request('GET', '/v1/qc/openapi.yaml');
    const again = await t.request('GET', '/v1/qc/openapi.json');
    expect(again.text).toBe(first.text);
    expect(Bun.YAML.parse(yaml.text)).toEqual(JSON.parse(first.text));
  });
});
