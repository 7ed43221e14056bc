import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import { MAX_JSON_DEPTH } from './read-body.ts';

/**
 * Issue 16 defect 3: a 120-200 KB nested body stalled the event loop for seconds and 100 MB bodies without a
 * token were read and parsed. Bodies are bounded before they are read (per route), nested JSON is refused by a
 * scan before any parse, and a route that needs a token reads no byte of its body before authentication.
 *
 * No wall-clock assertions: "never read" is the stream's own pull count, "never parsed" is JSON.parse never
 * seeing the body.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());

/** A body whose reads are counted: the Request itself prefetches one chunk (the stream's high-water mark). */
function countedBody(chunk: string, chunks: number) {
  const bytes = new TextEncoder().encode(chunk);
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      counter.pulled++;
      controller.enqueue(bytes);
      if (counter.pulled >= chunks) controller.close();
    },
  });
  return { stream, counter };
}

function post(path: string, body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) {
  return t.app.handle(
    new Request(`http://localhost/v1/qc${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    }),
  );
}

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

const bomb = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('request bodies', () => {
  it('refuses a nesting bomb with 422 too_deep without parsing it, while /healthz answers', async () => {
    const auth = { authorization: `Bearer ${demo.personal_token}` };
    const [res, parses] = await parsesOfSize(20_000, () => post('/bookings', bomb(30_000), auth));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      status: 'error',
      message: 'errors.validation_error',
      errors: { body: ['customer.booking.messages.too_deep'] },
    });
    expect(parses).toBe(0);
    expect((await t.request('GET', '/healthz')).status).toBe(200);
  });

  it('refuses the 150 KB bombs of the report: too large for a booking, too deep for a catalogue sync', async () => {
    const auth = { authorization: `Bearer ${demo.personal_token}` };
    const [[booking, sync], parses] = await parsesOfSize(100_000, () =>
      Promise.all([post('/bookings', bomb(75_000), auth), post('/catalogue-sync', bomb(75_000), auth)]),
    );
    expect(booking.status).toBe(413);
    expect(sync.status).toBe(422);
    expect(parses).toBe(0);
  });

  it('accepts nesting up to the limit: the depth rule refuses bombs, not bodies', async () => {
    const res = await post('/bookings', bomb(MAX_JSON_DEPTH), { authorization: `Bearer ${demo.personal_token}` });
    // Parsed, then refused by the body schema (an array is not a booking): a validation error of another kind.
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).not.toContain('too_deep');
  });

  it('reads no byte of the body before authentication on a route that needs a token', async () => {
    const { stream, counter } = countedBody(bomb(500), 2000);
    const res = await post('/bookings', stream);
    expect(res.status).toBe(401);
    expect(counter.pulled).toBeLessThanOrEqual(1);
    const wrongToken = countedBody('{"a":1}', 2000);
    const refused = await post('/bookings', wrongToken.stream, { authorization: 'Bearer qc_not-a-token' });
    expect(refused.status).toBe(401);
    expect(wrongToken.counter.pulled).toBeLessThanOrEqual(1);
  });

  it('answers 413 with the limit on a declared length over the route limit, before reading', async () => {
    const { stream, counter } = countedBody('x'.repeat(1024), 200);
    const res = await post('/bookings', stream, {
      authorization: `Bearer ${demo.personal_token}`,
      'content-length': String(200 * 1024),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      status: 'error',
      message: 'errors.qc.payload_too_large',
      limit_bytes: 65536,
    });
    expect(counter.pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading a body without Content-Length once it passes the limit', async () => {
    const { stream, counter } = countedBody('x'.repeat(1024), 100_000);
    const res = await post('/bookings', stream, { authorization: `Bearer ${demo.personal_token}` });
    expect(res.status).toBe(413);
    // 64 KB in 1 KB chunks: the read stopped just past the limit, not at 100 MB.
    expect(counter.pulled).toBeLessThan(70);
  });

  it('gives inventory pushes megabytes: a 1 MB push is not refused for its size', async () => {
    const row = { room_type_id: 'none', date_from: '2030-01-01', date_to: '2030-01-02', availability: 1 };
    const values = Array.from({ length: 1000 }, () => ({ ...row, padding: 'p'.repeat(900) }));
    const property = demo.properties[0]?.external_property_id;
    const res = await post(`/properties/${property}/inventory/availability`, JSON.stringify({ values }), {
      authorization: `Bearer ${demo.personal_token}`,
    });
    expect(res.status).not.toBe(413);
  });
});

describe('input PostgreSQL cannot store', () => {
  const token = () => demo.personal_token;

  it('refuses a NUL byte in a body string with 422 naming the field', async () => {
    const property = demo.properties[0]?.external_property_id;
    const res = await t.request('PATCH', `/v1/qc/properties/${property}`, {
      token: token(),
      body: { partner_name: 'Nul\u0000Inn' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ partner_name: ['customer.property.messages.invalid_characters'] });
  });

  it('refuses a lone surrogate in a JSON string with 422 naming the field', async () => {
    const property = demo.properties[0]?.external_property_id;
    const res = await t.request('PATCH', `/v1/qc/properties/${property}`, {
      token: token(),
      raw: '{"partner_name":"half \\ud800 a pair"}',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ partner_name: ['customer.property.messages.invalid_characters'] });
  });

  it('refuses a NUL byte in a path parameter or a query string with 422', async () => {
    const inPath = await t.request('GET', '/v1/qc/properties/abc%00def', { token: token() });
    expect(inPath.status).toBe(422);
    const inQuery = await t.request('GET', '/v1/qc/properties', { token: token(), query: { name: 'a\u0000b' } });
    expect(inQuery.status).toBe(422);
  });

  it('answers non-integer and huge paging with 422, not 500', async () => {
    for (const query of [{ per_page: '1.5' }, { page: '1.5' }, { page: '99999999999999999999' }, { page: '1e400' }]) {
      const res = await t.request('GET', '/v1/qc/properties', { token: token(), query });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('errors.validation_error');
    }
  });
});
