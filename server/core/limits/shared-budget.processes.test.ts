import { beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../../demo/demo.ts';
import type { ServerProcess } from '../../testing/server-process.ts';
import { twoProcessesPerFile } from '../../testing/two-processes.ts';

/**
 * Two server processes (`bun server/main.ts`) on one PostgreSQL and one Redis enforce one budget and one
 * set of idempotency records (spec 8.1, 8.3). A private Redis, so counts start at zero on every run.
 */
const OPERATOR = 'processes-test-operator-token';

// Both processes on one PostgreSQL and one Redis: not on the embedded default, where each has its own.
describe.skipIf(!process.env.DATABASE_URL)('two server processes sharing Redis', () => {
  const two = twoProcessesPerFile(OPERATOR);
  let a: ServerProcess;
  let b: ServerProcess;
  let demo: Demo;
  beforeAll(() => {
    ({ a, b, demo } = two);
  });

  const get = (server: ServerProcess, path: string) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${demo.personal_token}` } });

  it('spends one reads budget across both processes: 300 answered in a minute, the rest 429', async () => {
    // Wall-clock minutes here: start with enough of the minute left for 320 requests.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await Bun.sleep(60_000 - intoMinute + 50);

    const replies: Response[] = [];
    for (let batch = 0; batch < 8; batch++) {
      replies.push(
        ...(await Promise.all(Array.from({ length: 40 }, (_, i) => get(i % 2 ? a : b, '/v1/qc/properties')))),
      );
    }
    const answered = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 429);
    expect(answered).toHaveLength(300);
    expect(refused).toHaveLength(20);
    // Each answer saw a different count: one counter, not two of 300.
    const remaining = new Set(answered.map((r) => r.headers.get('x-ratelimit-remaining')));
    expect(remaining.size).toBe(300);
    const resets = new Set(replies.map((r) => r.headers.get('x-ratelimit-reset')));
    expect(resets.size).toBe(1);
    const reset = Number([...resets][0]);
    for (const r of refused) {
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(Math.abs(Math.floor(Date.now() / 1000) + retryAfter - reset)).toBeLessThanOrEqual(2);
    }
  }, 90_000);

  it('replays on one process what the other answered, and writes once for simultaneous requests to both', async () => {
    const post = (server: ServerProcess, code: string, key: string) =>
      fetch(`${server.url}/v1/qc/properties`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${demo.personal_token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({
          name: 'Two Process Hotel',
          type_id: 1,
          currency: 'EUR',
          timezone: 'Europe/Lisbon',
          partner_code: code,
        }),
      });
    const code = `TWO-${Date.now()}`;
    const first = await post(a, code, `one-${code}`);
    const second = await post(b, code, `one-${code}`);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotency-replayed')).toBe('true');
    expect(await second.text()).toBe(await first.text());

    const together = `${code}-B`;
    const both = await Promise.all([post(a, together, `both-${together}`), post(b, together, `both-${together}`)]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    const [x, y] = await Promise.all(both.map((r) => r.text()));
    expect(x).toBe(y as string);
    expect(both.filter((r) => r.headers.get('idempotency-replayed') === 'true')).toHaveLength(1);
  }, 30_000);
});
