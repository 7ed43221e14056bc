import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ServerProcess } from '../testing/server-process.ts';
import { serveCorpus, writeCorpus } from './cutover-test-fixture.ts';

/**
 * Two `bun server/main.ts` processes on one database: a flip made through either applies to the key's very next
 * request on the other (the mode is read with the key on every request; nothing caches it).
 */
const OPERATOR = 'cutover-operator-token-0123456789';
const LEGACY_BODY = '{"data":[{"id":1,"name":"Answered by the legacy stand-in"}]}';
let a: ServerProcess;
let b: ServerProcess;
let standIn: Awaited<ReturnType<typeof serveCorpus>>;
let apiKey: string;
let keyId: number;

const env = {
  DATABASE_URL: process.env.DATABASE_URL,
  REDIS_URL: process.env.REDIS_URL,
  QC_OPERATOR_TOKEN: OPERATOR,
};

async function ops(server: ServerProcess, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/ops${path}`, {
    method,
    headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${method} /ops${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

const roomsDetails = async (server: ServerProcess) =>
  (await fetch(`${server.url}/api/pms/v1/property/getRoomsDetails?api_key=${encodeURIComponent(apiKey)}`)).text();

// Two processes share one database: PostgreSQL only (on the embedded default each process has its own).
describe.skipIf(!process.env.DATABASE_URL)('a cutover flip', () => {
  beforeAll(async () => {
    [a, b] = await Promise.all([ServerProcess.start(env), ServerProcess.start(env)]);
    const demo = await ops(a, 'POST', '/demo');
    apiKey = demo.legacy_api_key as string;
    keyId = demo.legacy_api_key_id as number;
    const call = { method: 'GET' as const, path: 'property/getRoomsDetails' };
    standIn = await serveCorpus(await writeCorpus([{ call, status: 200, body: LEGACY_BODY }], apiKey));
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), standIn?.stop()]);
  }, 30_000);

  it("applies to the key's next request on another process, both ways", async () => {
    expect(await ops(b, 'GET', `/legacy-keys/${keyId}`)).toMatchObject({ id: keyId, mode: 'live', upstream_url: null });
    const portAnswer = await roomsDetails(b);
    expect(portAnswer).not.toBe(LEGACY_BODY);
    expect(JSON.parse(portAnswer).data.length).toBeGreaterThan(0);

    await ops(a, 'PUT', `/legacy-keys/${keyId}/cutover`, {
      mode: 'shadow',
      upstream_url: standIn.url,
      allow_private_upstream: true,
    });
    expect(await roomsDetails(b)).toBe(LEGACY_BODY);
    expect(await roomsDetails(a)).toBe(LEGACY_BODY);

    // The demo's key has no shadow history: flipping it back live is deliberate, past the zero-streak guard.
    await ops(b, 'PUT', `/legacy-keys/${keyId}/cutover`, { mode: 'live', force: true });
    expect(await roomsDetails(a)).toBe(portAnswer);
    expect(await ops(a, 'GET', `/legacy-keys/${keyId}`)).toMatchObject({ mode: 'live', upstream_url: standIn.url });
  }, 30_000);
});
