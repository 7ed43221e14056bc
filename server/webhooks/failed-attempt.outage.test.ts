import { afterAll, describe, expect, it } from 'bun:test';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { interceptStatements } from '../testing/intercept-statements.ts';
import { startWebhooks, type Webhooks } from './dispatcher.ts';
import {
  commitBookingEvent,
  deliveryRows,
  startReceiver,
  subscribe,
  type TestReceiver,
  WallClock,
} from './test-support.ts';

/**
 * An attempt that fails on the service's side (its claim lost with a database connection, as during the topology
 * suite's storm of backend terminations) leaves the delivery due in the table. The dispatcher had marked it
 * scheduled for a minute, so no sweep took it up again until then: one acknowledged booking's webhook arrived
 * after the fault suite's 40 s. It must go out again at the next sweep.
 */
describe('a delivery whose attempt failed on the database', () => {
  let t: TestApp;
  let webhooks: Webhooks | undefined;
  let receiver: TestReceiver;
  afterAll(async () => {
    await webhooks?.stop();
    await t?.close();
    await receiver?.stop();
  });

  it('is attempted again at the next sweep, not a minute later', async () => {
    t = await startTestApp({ clock: new WallClock(), env: { REDIS_URL: '' } });
    receiver = startReceiver();
    const demo = await t.demo();
    const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
    // Only this test's delivery: the shared database may hold other files' due deliveries, which the sweep claims too.
    const [before] = await t.deps.db.sql<{ max: number }>`select coalesce(max(id), 0)::int as max from deliveries`;
    const ours = (values: readonly unknown[]) =>
      Array.isArray(values[0]) && values[0].some((id) => Number(id) > (before?.max ?? 0));
    let claimsLost = 0;
    const db = interceptStatements(t.deps.db, (text, values) => {
      if (claimsLost === 0 && text.includes("set status = 'delivering'") && ours(values)) {
        claimsLost++;
        throw Object.assign(new Error('write CONNECTION_CLOSED (test)'), { code: 'CONNECTION_CLOSED' });
      }
    });
    webhooks = await startWebhooks({ ...t.deps, db }, { pollMs: 50, prefix: `qc-test-${crypto.randomUUID()}` });

    await commitBookingEvent(t, demo, 'booking.created', 1);
    const [request] = await receiver.waitFor(1, 5000);

    expect(claimsLost).toBe(1);
    expect(request?.headers.get('x-qc-event')).toBe('booking.created');
    // The lost claim wrote nothing (its statement never ran): the delivery's first attempt is the one that arrived.
    expect(request?.headers.get('x-qc-attempt')).toBe('1');
    // The success is recorded a few milliseconds after the receiver answered (batched: deliver.ts).
    let [row] = await deliveryRows(t.deps, sub.id);
    for (let i = 0; i < 100 && row?.status !== 'delivered'; i++) {
      await Bun.sleep(20);
      [row] = await deliveryRows(t.deps, sub.id);
    }
    expect(row).toMatchObject({ status: 'delivered', attempts: 1 });
  }, 20_000);
});
