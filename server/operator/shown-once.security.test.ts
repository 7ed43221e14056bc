import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { Cluster } from 'ioredis';
import type { IdempotencyStore } from '../core/idempotency/store.ts';
import type { Demo } from '../demo/demo.ts';
import { OPERATOR_TOKEN, type Reply, startTestApp, type TestApp } from '../testing/harness.ts';
import { REDIS_BACKENDS } from '../testing/redis-backends.ts';

/**
 * A credential is shown once (spec 4.1, README "Secrets and tokens are stored only as SHA-256 digests"): the same
 * Idempotency-Key again replays the first answer without it. The idempotency store (Redis when configured, else
 * this process) keeps the answer with the secret null, so it never holds a secret for its 24 hours.
 */
for (const backend of REDIS_BACKENDS) {
  describe(`credentials under a repeated Idempotency-Key (${backend.name})`, () => {
    let t: TestApp;
    let demo: Demo;
    let session: string;
    /** Every response handed to the store to keep, as the JSON it keeps. */
    const kept: string[] = [];

    beforeAll(async () => {
      t = await startTestApp({ env: backend.env });
      demo = await t.demo();
      session = await t.dashboardSession(demo.customer_id);
      const store = (t.deps.idempotency as unknown as { store: IdempotencyStore }).store;
      const complete = store.complete.bind(store);
      store.complete = (key, lease, response, expiresAtMs) => {
        kept.push(JSON.stringify(response));
        return complete(key, lease, response, expiresAtMs);
      };
    });
    afterAll(() => t.close());

    const post = (path: string, token: string, key: string, body?: unknown) =>
      t.request('POST', path, { token, body, headers: { 'idempotency-key': key } });

    /** The bytes Redis holds for this Idempotency-Key (every field of its record), on every node of a cluster. */
    async function redisBytes(key: string): Promise<string> {
      const redis = t.deps.redis;
      if (!redis) return '';
      const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
      const names: string[] = [];
      for (const node of nodes) names.push(...(await node.scan(0, 'MATCH', `*idem:*:${key}`, 'COUNT', 100_000))[1]);
      expect(names.length).toBe(1);
      return JSON.stringify(await redis.hgetall(names[0] as string));
    }

    const at = (body: unknown, path: string): unknown =>
      path.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown> | null)?.[part], body);

    const cases: { name: string; paths: string[]; send: (key: string) => Promise<Reply> }[] = [
      {
        name: 'POST /api/v1/pem-systems/qc/api-tokens',
        paths: ['data.token'],
        send: (key) =>
          post('/api/v1/pem-systems/qc/api-tokens', session, key, {
            name: 's2',
            scopes: ['inventory.read'],
            property_ids: [demo.properties[0]?.external_property_id],
          }),
      },
      {
        name: 'POST /api/v1/pem-systems/qc/clients/{client_id}/rotate-secret',
        paths: ['data.client_secret'],
        send: (key) => post(`/api/v1/pem-systems/qc/clients/${demo.client.client_id}/rotate-secret`, session, key),
      },
      {
        name: 'POST /ops/clients',
        paths: ['data.client_secret'],
        send: (key) => post('/ops/clients', OPERATOR_TOKEN, key, { customer_id: demo.customer_id, scopes: [] }),
      },
      {
        name: 'POST /ops/clients/{client_id}/rotate-secret',
        paths: ['data.client_secret'],
        send: (key) => post(`/ops/clients/${demo.client.client_id}/rotate-secret`, OPERATOR_TOKEN, key),
      },
      {
        name: 'POST /ops/legacy-keys',
        paths: ['data.api_key'],
        send: (key) =>
          post('/ops/legacy-keys', OPERATOR_TOKEN, key, { property_id: demo.properties[0]?.external_property_id }),
      },
      {
        name: 'POST /ops/customers/{id}/dashboard-token',
        paths: ['data.token'],
        send: (key) => post(`/ops/customers/${demo.customer_id}/dashboard-token`, OPERATOR_TOKEN, key),
      },
      {
        name: 'POST /ops/demo',
        paths: ['data.client.client_secret', 'data.personal_token', 'data.legacy_api_key', 'data.legacy.api_key'],
        send: (key) => post('/ops/demo', OPERATOR_TOKEN, key),
      },
    ];

    for (const { name, paths, send } of cases) {
      it(`${name}: the replay withholds the secret, says so, and the store never held it`, async () => {
        const key = crypto.randomUUID();
        const first = await send(key);
        expect(first.status).toBe(200);
        const secrets = paths.map((path) => at(first.body, path));
        for (const secret of secrets) expect(secret).toEqual(expect.any(String));
        expect(first.body.secret_withheld).toBeUndefined();

        const again = await send(key);
        expect(again.status).toBe(200);
        expect(again.headers.get('idempotency-replayed')).toBe('true');
        for (const path of paths) expect(at(again.body, path)).toBeNull();
        expect(again.body.secret_withheld).toEqual(paths);
        expect(again.body.detail).toContain('shown only in the first answer to this Idempotency-Key');
        expect(again.body.detail).toContain('To get a new one, ');
        // Everything else is the first answer.
        const { secret_withheld: _, detail: __, ...rest } = again.body;
        expect(paths.reduce((body, path) => withNull(body, path), first.body)).toEqual(rest);

        const stored = [...kept, await redisBytes(key)];
        for (const secret of secrets) {
          expect(again.text).not.toContain(secret as string);
          expect(stored.filter((bytes) => bytes.includes(secret as string))).toEqual([]);
        }
      });
    }
  });
}

/** `body` with the value at the dot path `path` set to null. */
function withNull(body: unknown, path: string): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const parts = path.split('.');
  const last = parts.pop() as string;
  const parent = parts.reduce<Record<string, unknown>>((value, part) => value[part] as Record<string, unknown>, copy);
  parent[last] = null;
  return copy;
}
