import { describe, expect, it } from 'bun:test';
import { OPERATOR_TOKEN, perFile, testAppPerFile } from '../../testing/harness.ts';
import { MAX_JSON_DEPTH } from './read-body.ts';

/**
 * Issue 25 N3: one body-depth rule for every route that reads JSON. The partner API refused a 20,000-deep body
 * in 5 ms; `POST /ops/bookings` parsed, validated and cleaned it for 10 s (1.5 GB). Every JSON surface now
 * scans the depth before any parse; the legacy facade applies PHP's json_decode depth (deeper is no input).
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());

const bomb = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Counts JSON.parse calls on texts at least `size` long while `fn` runs. */
async function parsesOfSize<T>(size: number, fn: () => Promise<T>): Promise<[T, number]> {
  const parse = JSON.parse;
  let count = 0;
  JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
    if (typeof text === 'string' && text.length >= size) count++;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    return [await fn(), count];
  } finally {
    JSON.parse = parse;
  }
}

function send(method: string, path: string, body: string, token: string) {
  return t.app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    }),
  );
}

const tooDeep = {
  status: 'error',
  message: 'errors.validation_error',
  errors: { body: ['customer.request.messages.too_deep'] },
};

describe('the JSON depth rule', () => {
  it('refuses a 20,000-deep POST /ops/bookings with 422 too_deep without parsing it', async () => {
    const [res, parses] = await parsesOfSize(100_000, () =>
      send('POST', '/ops/bookings', bomb(20_000), OPERATOR_TOKEN),
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject(tooDeep);
    expect(parses).toBe(0);
    expect((await t.request('GET', '/healthz')).status).toBe(200);
  });

  it('holds on every operator and dashboard route that takes a body', async () => {
    const session = await t.dashboardSession(demo.customer_id);
    const routes = t.app.routes.filter(
      (r) =>
        ['POST', 'PUT', 'PATCH'].includes(r.method) &&
        (r.path.startsWith('/ops/') || r.path.startsWith('/api/v1/pem-systems/qc/')),
    );
    expect(routes.length).toBeGreaterThan(20);
    const answers: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '1');
      const res = await send(
        route.method,
        path,
        bomb(MAX_JSON_DEPTH + 1),
        path.startsWith('/ops/') ? OPERATOR_TOKEN : session,
      );
      const body = (await res.json()) as { message?: string; errors?: { body?: string[] } };
      answers.push(`${route.method} ${route.path} ${res.status} ${body.errors?.body?.[0] ?? body.message}`);
    }
    expect(answers.filter((a) => !a.endsWith('422 customer.request.messages.too_deep'))).toEqual([]);
  });

  it('accepts operator bodies up to the limit: the rule refuses bombs, not bodies', async () => {
    const res = await send(
      'POST',
      '/ops/customers',
      JSON.stringify({ name: 'Depth', x: JSON.parse(bomb(MAX_JSON_DEPTH - 1)) }),
      OPERATOR_TOKEN,
    );
    expect(res.status).toBe(200);
  });

  it('bounds the inbound webhook, which parses its body itself: depth (422) and size (413) before the domain sees it', async () => {
    const path = '/v1/qc/inbound/webhooks?channel=BDC';
    const deep = await send('POST', path, bomb(5_000), demo.personal_token);
    expect([deep.status, ((await deep.json()) as { errors?: unknown }).errors]).toEqual([
      422,
      { body: ['customer.inbound_webhook.messages.too_deep'] },
    ]);
    const large = await send('POST', path, JSON.stringify({ x: 'a'.repeat(100_000) }), demo.personal_token);
    expect([large.status, ((await large.json()) as { message?: string }).message]).toEqual([
      413,
      'errors.qc.payload_too_large',
    ]);
  });

  it('reads a legacy body deeper than json_decode allows (512) as no input, as PHP did, without parsing it', async () => {
    const [res, parses] = await parsesOfSize(10_000, () =>
      t.app.handle(
        new Request(`http://localhost/api/pms/v1/availability/updateAvailability?api_key=${demo.legacy_api_key}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bomb(20_000),
        }),
      ),
    );
    expect(res.status).toBeLessThan(500);
    expect(parses).toBe(0);
  });
});
