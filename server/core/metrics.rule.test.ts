import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countRequest, httpRequestSeconds, httpRequests, metricsRegistry } from './metrics.ts';

// countRequest moves a series it has seen in prom-client's own store (issue 27): these pin that the figures
// are what prom-client's inc and observe give, including for a series removed (or reset) meanwhile.
const labels = { route: 'qc.metrics.fast-path', method: 'GET', status: '200' };

async function series() {
  const counted = (await httpRequests.get()).values.find((v) => v.labels.route === labels.route);
  const observed = (await httpRequestSeconds.get()).values.filter((v) => v.labels.route === labels.route);
  const bucket = (le: number | string) =>
    observed.find(
      (v) => v.metricName === 'qc_http_request_duration_seconds_bucket' && (v.labels as { le?: unknown }).le === le,
    )?.value;
  const of = (name: string) => observed.find((v) => v.metricName === name)?.value;
  return {
    count: counted?.value,
    observations: of('qc_http_request_duration_seconds_count'),
    sum: of('qc_http_request_duration_seconds_sum') ?? 0,
    bucket,
  };
}

describe('countRequest', () => {
  it('counts and times a repeated series as prom-client does, each duration in its first bucket', async () => {
    // Each duration sits mid-bucket and each start is read at its call: a loaded CI run paused the test between one
    // shared start and a later call, and 20 ms became more than 25 ms (the next bucket).
    const tookMs = (ms: number) => performance.now() - ms;
    countRequest(labels.route, 'GET', 200, tookMs(17.5)); // 0.0175 s: le 0.025
    countRequest(labels.route, 'GET', 200, tookMs(17.5));
    countRequest(labels.route, 'GET', 200, tookMs(300)); // 0.3 s: le 0.5
    countRequest(labels.route, 'GET', 200, tookMs(20_000)); // 20 s: above every bound, +Inf only
    const s = await series();
    expect(s.count).toBe(4);
    expect(s.observations).toBe(4);
    expect(s.sum).toBeGreaterThan(20.33);
    expect(s.sum).toBeLessThan(21);
    expect(s.bucket(0.01)).toBe(0);
    expect(s.bucket(0.025)).toBe(2);
    expect(s.bucket(0.25)).toBe(2);
    expect(s.bucket(0.5)).toBe(3);
    expect(s.bucket(10)).toBe(3);
    expect(s.bucket('+Inf')).toBe(4);
  });

  it('starts a series removed from the registry again from zero instead of moving the removed one', async () => {
    countRequest(labels.route, 'GET', 200, performance.now());
    httpRequests.remove(labels);
    httpRequestSeconds.remove(labels);
    countRequest(labels.route, 'GET', 200, performance.now());
    const s = await series();
    expect(s.count).toBe(1);
    expect(s.observations).toBe(1);
    expect(s.bucket(0.005)).toBe(1);
  });
});

describe('the Metrics table of docs/operations.md', () => {
  // qc_legacy_shadow_uncompared_total was served (and listed in docs/migration.md) but missing from the table.
  it('lists every metric the registry serves, and none it does not', () => {
    const doc = readFileSync(join(import.meta.dir, '..', '..', 'docs', 'operations.md'), 'utf8');
    const section = doc.slice(doc.indexOf('\n## Metrics\n'), doc.indexOf('\n## ', doc.indexOf('\n## Metrics\n') + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| `qc_'));
    const documented = rows.flatMap((row) => [...(row.split(' | ')[0] ?? '').matchAll(/`(qc_\w+)/g)].map((m) => m[1]));
    const served = metricsRegistry.getMetricsAsArray().map((metric) => metric.name);
    expect(documented.toSorted()).toEqual(served.toSorted());
  });
});
