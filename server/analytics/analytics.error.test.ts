import { describe, expect, it } from 'bun:test';
import { freePort } from '../testing/free-port.ts';
import { perFile, startTestApp, type TestApp, testAppPerFile } from '../testing/harness.ts';

const base = testAppPerFile();
const demo = perFile(() => base.demo());

/** An app whose analytics come from `url`; closed after `run`. */
async function withUpstream(url: string, run: (t: TestApp) => Promise<void>, env: Record<string, string> = {}) {
  const t = await startTestApp({ env: { QC_ANALYTICS_URL: url, ...env } });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const overview = (t: TestApp) =>
  t.request('GET', `/v1/qc/properties/${demo.properties[0]?.id}/analytics/overview`, {
    token: demo.personal_token,
    query: { from: '2026-07-01', to: '2026-07-31' },
  });

describe('analytics upstream failures', () => {
  it('answers 502 analytics_upstream_error when nothing listens on the upstream port', async () => {
    await withUpstream(`http://127.0.0.1:${freePort()}`, async (t) => {
      const res = await overview(t);
      expect(res.status).toBe(502);
      expect(res.body.message).toBe('errors.qc.analytics_upstream_error');
      expect(res.headers.get('x-qc-support-ticket')).toMatch(/^QC-/);
    });
  });

  it('answers 502 when the upstream answers 500, and 200 from it once it answers a report', async () => {
    let status = 500;
    const seen: string[] = [];
    const upstream = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(request) {
        seen.push(new URL(request.url).pathname + new URL(request.url).search);
        if (status !== 200) return new Response('boom', { status });
        return Response.json({
          data: {
            currency: 'EUR',
            room_nights_available: 100,
            room_nights_sold: 50,
            occupancy: 0.5,
            room_revenue: 5000,
            adr: 100,
            revpar: 50,
            bookings_received: 7,
            cancellations: 1,
            other_currency_bookings: 0,
          },
        });
      },
    });
    try {
      await withUpstream(`http://127.0.0.1:${upstream.port}`, async (t) => {
        const failed = await overview(t);
        expect(failed.status).toBe(502);
        expect(failed.body.message).toBe('errors.qc.analytics_upstream_error');
        status = 200;
        const res = await overview(t);
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ source: 'upstream', data: { occupancy: 0.5, adr: 100 } });
        expect(seen.at(-1)).toBe(`/properties/${demo.properties[0]?.id}/overview?from=2026-07-01&to=2026-07-31`);
      });
    } finally {
      await upstream.stop(true);
    }
  });

  it('answers 502 instead of hanging when the upstream never answers, and when it answers another shape', async () => {
    const upstream = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (request) =>
        new URL(request.url).pathname.endsWith('/overview')
          ? new Promise<Response>(() => {})
          : Response.json({ data: { unexpected: true } }),
    });
    try {
      await withUpstream(
        `http://127.0.0.1:${upstream.port}`,
        async (t) => {
          expect((await overview(t)).status).toBe(502);
          const pace = await t.request('GET', `/v1/qc/properties/${demo.properties[0]?.id}/analytics/pace`, {
            token: demo.personal_token,
            query: { from: '2026-07-01', to: '2026-07-02' },
          });
          expect(pace.status).toBe(502);
        },
        { QC_ANALYTICS_TIMEOUT_MS: '200' },
      );
    } finally {
      await upstream.stop(true);
    }
  });
});

describe('analytics upstream figures the service does not hold', () => {
  it('passes the upstream sessions, searches, clicks and cost through, null included, and refuses a negative one', async () => {
    const answers: Record<string, unknown> = {
      traffic: { sessions: 1234, sources: [] },
      funnel: {
        searches: 5678,
        created: 3,
        confirmed: 2,
        stayed: 1,
        cancelled: 1,
        no_show: 0,
        confirmation_rate: 0.6667,
        cancellation_rate: 0.3333,
      },
      campaigns: {
        campaigns: [
          { campaign: 'search_ads', bookings: 2, room_nights: 5, revenue: 500, clicks: 310, cost: 42.5 },
          { campaign: 'agency:Sunny Travel', bookings: 1, room_nights: 2, revenue: 200, clicks: null, cost: null },
        ],
      },
    };
    const upstream = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (request) => Response.json({ data: answers[new URL(request.url).pathname.split('/').at(-1) as string] }),
    });
    const report = (t: TestApp, kind: string, to = '2026-07-31') =>
      t.request('GET', `/v1/qc/properties/${demo.properties[0]?.id}/analytics/${kind}`, {
        token: demo.personal_token,
        query: { from: '2026-07-01', to },
      });
    try {
      await withUpstream(`http://127.0.0.1:${upstream.port}`, async (t) => {
        for (const kind of ['traffic', 'funnel', 'campaigns']) {
          const res = await report(t, kind);
          expect([kind, res.status]).toEqual([kind, 200]);
          expect([kind, res.body.data.source, res.body.data.data]).toEqual([kind, 'upstream', answers[kind]]);
        }
        answers.traffic = { sessions: -1, sources: [] };
        // Another range: the first answer is cached for its own.
        expect((await report(t, 'traffic', '2026-07-30')).status).toBe(502);
      });
    } finally {
      await upstream.stop(true);
    }
  });
});

describe('analytics refusals', () => {
  it('validates the range: dates, order and to at most 366 days after from', async () => {
    const get = (query: Record<string, string>) =>
      base.request('GET', `/v1/qc/properties/${demo.properties[0]?.id}/analytics/funnel`, {
        token: demo.personal_token,
        query,
      });
    expect((await get({ from: '2026-07-01' })).body.errors).toEqual({ to: ['customer.analytics.messages.required'] });
    expect((await get({ from: '2026-02-30', to: '2026-03-01' })).body.errors).toEqual({
      from: ['customer.analytics.messages.format'],
    });
    expect((await get({ from: '2026-02-01', to: '2026-13-01' })).status).toBe(422);
    expect((await get({ from: '2026-07-02', to: '2026-07-01' })).body.errors).toEqual({
      to: ['customer.analytics.messages.before_from'],
    });
    expect((await get({ from: '2026-01-01', to: '2027-01-02' })).status).toBe(200);
    expect((await get({ from: '2026-01-01', to: '2027-01-03' })).body.errors).toEqual({
      to: ['customer.analytics.messages.max_range'],
    });
  });

  it('needs analytics.read (properties.manage is not enough) and answers 404 outside the allow-list', async () => {
    const manager = await base.client({
      customer_id: demo.customer_id,
      scopes: ['properties.manage'],
      account_scoped: true,
    });
    const path = `/v1/qc/properties/${demo.properties[0]?.id}/analytics/overview`;
    const query = { from: '2026-07-01', to: '2026-07-02' };
    const refused = await base.request('GET', path, { token: manager.token, query });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('errors.qc.insufficient_scope');
    const analyst = await base.client({
      customer_id: demo.customer_id,
      scopes: ['analytics.read'],
      property_ids: [demo.properties[1]?.id as string],
    });
    expect((await base.request('GET', path, { token: analyst.token, query })).status).toBe(404);
    const other = await base.demo();
    const foreign = `/v1/qc/properties/${other.properties[0]?.id}/analytics/overview`;
    expect((await base.request('GET', foreign, { token: demo.personal_token, query })).status).toBe(404);
  });
});
