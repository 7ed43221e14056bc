import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { startWebhooks } from './dispatcher.ts';
import type { DueRow } from './due-deliveries.ts';
import { DueSweep, SHARE_EVERY_MS } from './due-sweep.ts';
import {
  commitBookingEvent,
  retireSubscriptions,
  startReceiver,
  subscribe,
  type TestReceiver,
} from './test-support.ts';

/**
 * The sweep after lost jobs (a restart, a crashed process, a lost Redis) when more deliveries are due than a pass
 * takes. Beyond the pass's limit of subscriptions with due deliveries each got one, always those whose oldest due
 * delivery was oldest, and the others none until fewer were due. And the shared pass, dearer than the oldest-first
 * one, ran every poll while the backlog lasted. A small limit stands in for SWEEP_LIMIT's 1000 subscriptions.
 */
const LIMIT = 3;
const SUBSCRIPTIONS = 7;

describe('the sweep with more due than a pass takes', () => {
  let t: TestApp;
  let demo: Demo;
  let receiver: TestReceiver;
  let ours: Set<number>;

  beforeAll(async () => {
    t = await startTestApp({ env: { REDIS_URL: '' } });
    receiver = startReceiver();
    demo = await t.demo();
    for (let n = 1; n <= SUBSCRIPTIONS; n++)
      await subscribe(t, demo.personal_token, { url: `${receiver.url}?n=${n}`, event_types: ['booking.created'] });
    // Relayed by a worker without a queue: one due delivery a subscription that no job or scheduler holds, as after
    // a restart. They are due at the same moment, so the oldest-first order is the subscriptions' order.
    const relayOnly = await startWebhooks(t.deps, { autorun: false });
    await commitBookingEvent(t, demo, 'booking.created', 1);
    await relayOnly.relayNow();
    await relayOnly.stop();
    const rows = await t.deps.db.sql<{ id: number }>`
      select id from subscriptions where customer_id = ${demo.customer_id}`;
    ours = new Set(rows.map((row) => Number(row.id)));
  });

  afterAll(async () => {
    if (demo) await retireSubscriptions(t.deps, demo.customer_id);
    await t?.close();
    await receiver?.stop();
  });

  const served = (rows: DueRow[]) => rows.map((row) => Number(row.subscription_id)).filter((id) => ours.has(id));

  it('serves every subscription with due deliveries in turn, within their number over the limit passes', async () => {
    // Other files' subscriptions may have due deliveries too: the bound counts every active one the sweep ranks.
    const [due] = await t.deps.db.sql<{ count: number }>`
      select count(distinct d.subscription_id)::int as count from deliveries d
      join subscriptions s on s.id = d.subscription_id
      where s.status = 'active' and s.deleted_at is null and d.next_attempt_at <= ${t.clock.now()}`;
    const passes = Math.ceil((due?.count ?? 0) / LIMIT);
    expect(passes).toBeGreaterThan(1);

    let wall = 0;
    const sweep = new DueSweep(t.deps.db, { limit: LIMIT, wallNow: () => wall });
    const reached = new Set<number>();
    for (let pass = 0; pass < passes; pass++) {
      const rows = await sweep.pass(t.clock.now());
      expect(rows.length).toBeLessThanOrEqual(LIMIT);
      for (const id of served(rows)) reached.add(id);
      wall += SHARE_EVERY_MS;
    }

    expect([...reached].sort()).toEqual([...ours].sort());
  });

  it('shares a pass at most once a second while more are due than it takes', async () => {
    let wall = 0;
    const sweep = new DueSweep(t.deps.db, { limit: LIMIT, wallNow: () => wall });
    expect((await sweep.pass(t.clock.now())).length).toBe(LIMIT);

    wall += SHARE_EVERY_MS - 1;
    expect(await sweep.pass(t.clock.now())).toEqual([]);

    wall += 1;
    expect((await sweep.pass(t.clock.now())).length).toBe(LIMIT);
  });

  it('reads every pass while the due deliveries fit in one', async () => {
    const sweep = new DueSweep(t.deps.db, { wallNow: () => 0 });

    expect(served(await sweep.pass(t.clock.now())).length).toBe(SUBSCRIPTIONS);
    expect(served(await sweep.pass(t.clock.now())).length).toBe(SUBSCRIPTIONS);
  });
});
