import { describe, expect, it } from 'bun:test';
import { appOver } from '../bookings/test-fixtures.ts';
import { OPERATOR_TOKEN, testAppPerFile } from '../testing/harness.ts';
import { interceptStatements } from '../testing/intercept-statements.ts';

/**
 * GET /metrics reads two figures from the database (outbox lag, deliveries waiting). With the database out of reach
 * the whole scrape answered 503, so every series of the process (the 503s counted, the latencies) was lost exactly
 * when the operator needed them. The database stays real: only the scrape's reads fail, the way postgres.js fails a
 * statement on a lost connection.
 */
const t = testAppPerFile();

describe('GET /metrics with the database out of reach', () => {
  it("serves the process's own series, leaving out only the figures read from the database", async () => {
    const outage = interceptStatements(t.deps.db, (text) => {
      if (/\bfrom (outbox_events|deliveries)\b/.test(text))
        throw Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });
    });
    const res = await appOver(t, outage)('GET', '/metrics', OPERATOR_TOKEN);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(text).toContain('# TYPE qc_http_requests_total counter');
    expect(text).toContain('# TYPE qc_actor_queue_depth gauge');
    expect(text).not.toContain('qc_outbox_lag_seconds');
    expect(text).not.toContain('qc_webhook_deliveries ');
    expect(text).not.toContain('qc_webhook_deliveries{');
    // Read again once the database answers.
    const healthy = await t.request('GET', '/metrics', { token: OPERATOR_TOKEN });
    expect(healthy.text).toContain('# TYPE qc_outbox_lag_seconds gauge');
  });
});
