import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { t as schema } from 'elysia';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import type { Log, LogFields } from '../log.ts';
import { dataExceptionsCaught } from '../metrics.ts';
import { defineRoute } from '../routes/route.ts';
import { okSchema } from './envelope.ts';
import { findIncident } from './incidents.ts';
import { mountRoutes } from './mount-routes.ts';
import { createQcApp } from './qc-app.ts';

/**
 * The net under the input checks: a database data exception (SQLSTATE class 22) is answered 422, never a 500, but
 * it once hid a server bug (a value the server built itself failed; partners saw 422s, their retries never got
 * through, and nobody was told). Each catch is now an incident with the database's message and SQLSTATE, a warning
 * in the log naming the net, and a count in qc_data_exceptions_caught_total. The real pipeline on a bare modern
 * app, with a test-only route that stands in for such a bug: it builds a date that does not exist.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());
let app: ReturnType<typeof createQcApp>;

const builtBadDate = defineRoute({
  name: 'qc.net_test.build_date',
  method: 'POST',
  path: '/net-test/dates',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'net_test',
  summary: 'Test only: stores a date the server builds from the nights sent',
  tags: ['test'],
  body: schema.Object({ nights: schema.Integer({ minimum: 1, maximum: 31 }) }),
  response: okSchema(schema.Object({})),
  async handle({ deps, body }) {
    // The bug: a day of February counted from the nights sent, never checked against the month's length.
    await deps.db.sql`select ${`2026-02-${27 + body.nights}`}::date`;
    return { status: 'ok', message: 'ok', data: {} };
  },
});

const lines: { level: string; msg: string; fields?: LogFields }[] = [];
let original: Log | undefined;
beforeAll(() => {
  app = createQcApp(t.deps);
  mountRoutes(app, t.deps, [builtBadDate]);
  original = t.deps.log;
  const recorder = (level: string) => (msg: string, fields?: LogFields) => void lines.push({ level, msg, fields });
  (t.deps as { log: Log }).log = { info: recorder('info'), warn: recorder('warn'), error: recorder('error') };
});
afterEach(() => {
  lines.length = 0;
});
afterAll(() => {
  if (original) (t.deps as { log: Log }).log = original;
});

async function send(body: unknown) {
  const res = await app.handle(
    new Request('http://localhost/v1/qc/net-test/dates', {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.personal_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  return {
    status: res.status,
    ticket: res.headers.get('x-qc-support-ticket') as string,
    body: (await res.json()) as any,
  };
}

async function caughtCount(): Promise<number> {
  return (await dataExceptionsCaught.get()).values[0]?.value ?? Number.NaN;
}

/** The stored incident of a ticket: stored best effort after the answer, so give the insert a moment. */
async function incidentOf(ticket: string): Promise<Record<string, any> | undefined> {
  for (let i = 0; i < 40; i++) {
    const row = await findIncident(t.deps.db, ticket);
    if (row) return row;
    await Bun.sleep(25);
  }
  return undefined;
}

describe('a data exception caught by the class-22 net', () => {
  it('still answers the partner 422 naming no field of theirs, never a 5xx', async () => {
    const res = await send({ nights: 2 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      status: 'error',
      message: 'errors.validation_error',
      errors: { request: ['customer.net_test.messages.invalid'] },
    });
  });

  it("records the incident with the database's message and SQLSTATE", async () => {
    const res = await send({ nights: 3 });
    const incident = await incidentOf(res.ticket);
    expect(incident).toMatchObject({
      status: 422,
      error_key: 'errors.validation_error',
      path: '/v1/qc/net-test/dates',
    });
    expect(incident?.detail).toMatchObject({
      caught_by: 'class-22 net',
      sqlstate: '22008',
      error: expect.stringContaining('2026-02-30'),
    });
  });

  it('logs a warning naming the net, under the ticket', async () => {
    const res = await send({ nights: 4 });
    const warning = lines.find((line) => line.fields?.ticket === res.ticket && line.level !== 'info');
    expect(warning).toMatchObject({
      level: 'warn',
      msg: 'data exception caught by the class-22 net',
      fields: { sqlstate: '22008', route: 'qc.net_test.build_date', path: '/v1/qc/net-test/dates' },
    });
    expect(String(warning?.fields?.error)).toContain('2026-02-31');
  });

  it('counts each catch in qc_data_exceptions_caught_total, served at GET /metrics', async () => {
    const before = await caughtCount();
    await send({ nights: 2 });
    await send({ nights: 3 });
    expect(await caughtCount()).toBe(before + 2);
    const scraped = await t.ops('GET', '/metrics');
    expect(scraped.text).toContain(`\nqc_data_exceptions_caught_total ${before + 2}\n`);
  });

  it('leaves an input check refusal, and a success, as they were: no warning, no count, no detail', async () => {
    const before = await caughtCount();
    const refused = await send({ nights: 40 });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ nights: ['customer.net_test.messages.max'] });
    expect((await send({ nights: 1 })).status).toBe(200);
    expect(lines.filter((line) => line.level !== 'info')).toEqual([]);
    expect(await caughtCount()).toBe(before);
    expect((await incidentOf(refused.ticket))?.detail).toBeNull();
  });
});
