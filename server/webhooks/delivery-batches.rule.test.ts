import { describe, expect, it } from 'bun:test';
import { claimDeliveries } from './claim-deliveries.ts';
import { recordSuccesses } from './record-successes.ts';
import { commitBookingEvent, deliveryRows, steppedWebhookTest, subscribe } from './test-support.ts';
import { TickBatch } from './tick-batch.ts';

// Issue 27: the claims and the success records of one turn of the event loop are one statement each. What a batch
// must keep from the single-delivery statements it replaced: the per-client budget, the lease, skip locked.
describe('webhook delivery batches', () => {
  const start = new Date('2026-04-07T10:00:00Z');
  const kit = steppedWebhookTest(start, {}, { each: true });
  const { clock, t, demo } = kit;
  const receiver = kit.receiver();
  const settings = { fanoutPerDay: 3, leaseMs: 10_000 };

  async function pending(count: number) {
    const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
    for (let n = 1; n <= count; n++) await commitBookingEvent(t, demo, 'booking.created', n);
    await t.webhooks?.relayNow();
    const rows = await deliveryRows(t.deps, sub.id);
    expect(rows).toHaveLength(count);
    return { sub, ids: rows.map((r) => r.id) };
  }

  it('grants a client with k units left exactly its first k first attempts of one batch, and defers the rest to midnight', async () => {
    const { sub, ids } = await pending(5);
    const [first, ...rest] = ids as [number, ...number[]];
    expect(await claimDeliveries(t.deps, settings, [first])).toMatchObject([{ attempt: 1 }]);
    // 2 units left, 4 asked in one statement (in any order): the two lowest ids go, the two others wait.
    const outcomes = await claimDeliveries(t.deps, settings, [...rest].reverse());
    const midnight = new Date('2026-04-08T00:00:00Z');
    expect(outcomes).toEqual([
      { kind: 'deferred', runAt: midnight },
      { kind: 'deferred', runAt: midnight },
      expect.objectContaining({ attempt: 1 }),
      expect.objectContaining({ attempt: 1 }),
    ]);
    const rows = await deliveryRows(t.deps, sub.id);
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['delivering', 1],
      ['delivering', 1],
      ['delivering', 1],
      ['pending', 0],
      ['pending', 0],
    ]);
    expect(rows.slice(3).map((r) => r.next_attempt_at)).toEqual([midnight, midnight]);
    const [usage] = await t.deps.db.sql<{ used: number }>`
      select u.used from webhook_fanout_usage u join subscriptions s on s.created_by = u.client_id
      where s.external_id = ${sub.id} and u.day = '2026-04-07'`;
    expect(usage?.used).toBe(3);
  });

  it('does not mark delivered a success whose delivery another worker took over meanwhile', async () => {
    const { sub, ids } = await pending(3);
    const claims = await claimDeliveries(t.deps, { ...settings, fanoutPerDay: 10 }, ids);
    expect(claims.every((c) => 'claim' in c)).toBe(true);
    // The lease of the second ran out and another worker claimed it: its second attempt is under way.
    clock.advance(11_000);
    const taken = await claimDeliveries(t.deps, { ...settings, fanoutPerDay: 10 }, [ids[1] as number]);
    expect(taken).toMatchObject([{ attempt: 2 }]);
    const finishedAt = clock.now();
    await recordSuccesses(
      t.deps,
      ids.map((deliveryId) => ({
        deliveryId,
        subscriptionId: (claims[0] as { claim: { subscription_id: number } }).claim.subscription_id,
        attempt: 1,
        startedAt: start,
        finishedAt,
        durationMs: 5,
        status: 204,
      })),
    );
    const rows = await deliveryRows(t.deps, sub.id);
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['delivered', 1],
      ['delivering', 2],
      ['delivered', 1],
    ]);
    const attempts = await t.deps.db.sql<{ delivery_id: number; attempt: number; success: boolean }>`
      select delivery_id, attempt, success from delivery_attempts where delivery_id = any(${ids}::bigint[]) order by delivery_id`;
    expect(attempts.map((a) => [a.delivery_id, a.attempt, a.success])).toEqual(ids.map((id) => [id, 1, true]));
    const [streak] = await t.deps.db.sql<{ last_success_at: Date | null }>`
      select last_success_at from subscriptions where external_id = ${sub.id}`;
    expect(streak?.last_success_at).toEqual(finishedAt);
  });

  it.skipIf(!process.env.DATABASE_URL)('skips the deliveries of a batch that another worker holds', async () => {
    const { sub, ids } = await pending(3);
    const held = ids[1] as number;
    const outcomes = await t.deps.db.tx(async (tx) => {
      await tx.sql`select id from deliveries where id = ${held} for update`;
      // Another connection of the pool: the claim must not wait for this transaction.
      return claimDeliveries(t.deps, { ...settings, fanoutPerDay: 10 }, ids);
    });
    expect(outcomes.map((o) => ('claim' in o ? 'claimed' : o.kind))).toEqual(['claimed', 'skipped', 'claimed']);
    const rows = await deliveryRows(t.deps, sub.id);
    expect(rows.map((r) => r.status)).toEqual(['delivering', 'pending', 'delivering']);
    // The held one was not charged: only the two claimed used the budget.
    const [usage] = await t.deps.db.sql<{ used: number }>`
      select u.used from webhook_fanout_usage u join subscriptions s on s.created_by = u.client_id
      where s.external_id = ${sub.id}`;
    expect(usage?.used).toBe(2);
  });
});

describe('TickBatch', () => {
  it('runs the calls of one turn of the event loop as one batch, and those made meanwhile as the next', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batch = new TickBatch<number, number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await gate;
      return items.map((i) => i * 10);
    });
    const first = [batch.add(1), batch.add(2), batch.add(3)];
    await new Promise((resolve) => setImmediate(resolve));
    const second = [batch.add(4)];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const third = [batch.add(5)];
    expect(batches).toEqual([[1, 2, 3]]);
    release();
    expect(await Promise.all([...first, ...second, ...third])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('waits lingerMs after the first call of a batch for more calls, then runs them as one batch', async () => {
    const batches: number[][] = [];
    const batch = new TickBatch<number, number>(
      async (items) => {
        batches.push(items);
        return items;
      },
      500,
      20,
    );
    const first = batch.add(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(batches).toEqual([]);
    const second = batch.add(2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(batches).toEqual([[1, 2]]);
  });

  it('rejects every call of a batch whose run failed, and runs the next batch', async () => {
    let calls = 0;
    const batch = new TickBatch<number, number>(async (items) => {
      if (++calls === 1) throw new Error('database gone');
      return items;
    });
    const failed = [batch.add(1), batch.add(2)];
    const settled = await Promise.allSettled(failed);
    expect(settled.map((s) => (s.status === 'rejected' ? String(s.reason) : s.status))).toEqual([
      'Error: database gone',
      'Error: database gone',
    ]);
    expect(await batch.add(3)).toBe(3);
  });
});
