import { describe, expect, it } from 'bun:test';
import { createLog, type Log, type LogFields } from '../core/log.ts';
import type { AttemptResult } from './deliver.ts';
import { FAIR_DEFAULTS, FairScheduler } from './fair-scheduler.ts';

/**
 * The fair scheduler's rules, with attempts the test ends itself (the delivery through HTTP is pinned in
 * fair-delivery.error.test.ts): the per-subscription share, healthy subscriptions first, the circuit.
 */
interface Started {
  deliveryId: number;
  subscriptionId: number;
  finish(result: AttemptResult): void;
  answered(): void;
  claimed?: Promise<string>;
}

function scheduler(
  options: Partial<typeof FAIR_DEFAULTS> & { concurrency: number },
  claimAhead?: number[],
  { log = createLog('silent'), now = Date.now }: { log?: Log; now?: () => number } = {},
) {
  const started: Started[] = [];
  const fair = new FairScheduler<string>(
    { ...FAIR_DEFAULTS, ...options },
    (deliveryId, subscriptionId, answered, claimed) =>
      new Promise<AttemptResult>((finish) => started.push({ deliveryId, subscriptionId, finish, answered, claimed })),
    log,
    now,
    claimAhead &&
      (async (deliveryId) => {
        claimAhead.push(deliveryId);
        return `claim of ${deliveryId}`;
      }),
  );
  return { fair, started };
}

const unreachable: AttemptResult = { kind: 'failed', attempt: 1, runAt: new Date(), unreachable: true };
const answered500: AttemptResult = { kind: 'failed', attempt: 1, runAt: new Date(), unreachable: false };
const delivered: AttemptResult = { kind: 'delivered', attempt: 1 };
const settle = () => Bun.sleep(0);

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await Bun.sleep(5);
  }
}

describe('fair scheduler', () => {
  it('gives one subscription at most its share of the attempts in flight, the rest go to the others', () => {
    const { fair, started } = scheduler({ concurrency: 4, perSubscription: 2 });
    for (let id = 1; id <= 10; id++) fair.submit(id, 1);
    fair.submit(100, 2);
    fair.submit(101, 2);
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2, 100, 101]);
    expect(fair.state(1)).toMatchObject({ waiting: 8, running: 2, open: false });
  });

  it('frees a share once the receiver accepted, before the success is recorded, and only then', async () => {
    const { fair, started } = scheduler({ concurrency: 4, perSubscription: 2 });
    for (let id = 1; id <= 4; id++) fair.submit(id, 1);
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2]);
    started[0]?.answered();
    // Accepted by the receiver, still being recorded: the next delivery goes out meanwhile.
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2, 3]);
    expect(fair.state(1)).toMatchObject({ waiting: 1, running: 2 });
    // Recorded: its share was already given back, not twice.
    started[0]?.finish(delivered);
    await settle();
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2, 3]);
    expect(fair.state(1)).toMatchObject({ waiting: 1, running: 2 });
    // A failure keeps its share until its outcome is known (the circuit counts it first).
    started[1]?.finish(unreachable);
    await settle();
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2, 3, 4]);
  });

  it('keeps the deliveries of a new burst when an attempt of the burst before it is still being recorded', async () => {
    // A lane that drained is forgotten and a new burst opens a new lane for the subscription; an attempt of the
    // first burst that was answered (its share given back) but is still being recorded must not drop the new lane
    // on finishing: its waiting deliveries then sat unstarted until the sweep's 60 s mark ran out.
    const { fair, started } = scheduler({ concurrency: 8, perSubscription: 2 });
    fair.submit(1, 1);
    fair.submit(2, 1);
    for (const attempt of started) attempt.answered();
    started[0]?.finish(delivered);
    await settle();
    for (let id = 3; id <= 5; id++) fair.submit(id, 1);
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2, 3, 4]);
    started[1]?.finish(delivered);
    await settle();
    expect(fair.state(1)).toMatchObject({ waiting: 1, running: 2 });
    started[2]?.answered();
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2, 3, 4, 5]);
  });

  it('claims ahead the first waiting deliveries of a full share, as many as the share, and hands each to its attempt', async () => {
    const claimed: number[] = [];
    const { fair, started } = scheduler({ concurrency: 8, perSubscription: 2 }, claimed);
    fair.submit(1, 1);
    // The share is not full: nothing is claimed ahead, the attempt claims for itself.
    expect(claimed).toEqual([]);
    for (let id = 2; id <= 6; id++) fair.submit(id, 1);
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2]);
    expect(claimed).toEqual([3, 4]);
    started[0]?.answered();
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2, 3]);
    expect(await started[2]?.claimed).toBe('claim of 3');
    expect(started[0]?.claimed).toBeUndefined();
    // The share is full again: the next waiting one is claimed, still two ahead.
    expect(claimed).toEqual([3, 4, 5]);
    await Promise.all([fair.close(), ...started.map((s) => s.finish(delivered))]);
  });

  it('claims nothing ahead for a receiver whose last attempt did not answer', async () => {
    const claimed: number[] = [];
    const { fair, started } = scheduler({ concurrency: 8, perSubscription: 1 }, claimed);
    fair.submit(1, 1);
    started[0]?.finish(unreachable);
    await settle();
    for (let id = 2; id <= 4; id++) fair.submit(id, 1);
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2]);
    expect(claimed).toEqual([]);
    await Promise.all([fair.close(), ...started.map((s) => s.finish(delivered))]);
  });

  it('queues a delivery once however many jobs name it', () => {
    const { fair, started } = scheduler({ concurrency: 1 });
    fair.submit(1, 1);
    fair.submit(2, 1);
    fair.submit(2, 1);
    fair.submit(1, 1);
    expect(fair.state(1)).toMatchObject({ waiting: 1, running: 1, open: false });
    expect(started).toHaveLength(1);
  });

  it('serves subscriptions whose receiver answers before one that just failed to answer', async () => {
    const { fair, started } = scheduler({ concurrency: 1 });
    fair.submit(1, 1);
    fair.submit(2, 1);
    started[0]?.finish(unreachable);
    fair.submit(100, 2);
    await settle();
    // Subscription 1 was next in turn, but its receiver did not answer: subscription 2 goes first.
    expect(started.map((s) => s.deliveryId)).toEqual([1, 100]);
    started[1]?.finish(delivered);
    await settle();
    expect(started.map((s) => s.deliveryId)).toEqual([1, 100, 2]);
  });

  it('pauses a receiver after three unreachable attempts in a row, then probes it once, and a success resumes it', async () => {
    const { fair, started } = scheduler({ concurrency: 8, perSubscription: 3, cooldownMs: 300 });
    for (let id = 1; id <= 10; id++) fair.submit(id, 1);
    expect(started).toHaveLength(3);
    for (const attempt of started.slice(0, 3)) attempt.finish(unreachable);
    await settle();
    expect(fair.state(1)).toMatchObject({ waiting: 7, running: 0, open: true });
    expect(started).toHaveLength(3);
    // Another subscription is not paused with it.
    fair.submit(100, 2);
    expect(started.at(-1)?.deliveryId).toBe(100);

    // After the pause: one probe, alone, however many wait.
    await until(() => started.length === 5);
    await Bun.sleep(20);
    expect(started.map((s) => s.deliveryId)).toEqual([1, 2, 3, 100, 4]);
    expect(fair.state(1)).toMatchObject({ waiting: 6, running: 1, open: false });
    started[4]?.finish(delivered);
    await settle();
    expect(fair.state(1)).toMatchObject({ waiting: 3, running: 3, open: false });
    await Promise.all([fair.close(), ...started.map((s) => s.finish(delivered))]);
  });

  it('keeps the circuit closed for a receiver that answers, even with errors', async () => {
    const { fair, started } = scheduler({ concurrency: 8, perSubscription: 1 });
    for (let id = 1; id <= 5; id++) fair.submit(id, 1);
    for (let i = 0; i < 4; i++) {
      started[i]?.finish(answered500);
      await settle();
    }
    expect(started).toHaveLength(5);
    expect(fair.state(1)?.open).toBe(false);
  });

  it('pauses longer each time the probe finds the receiver still unreachable', async () => {
    const { fair, started } = scheduler({ concurrency: 8, perSubscription: 3, cooldownMs: 100 });
    for (let id = 1; id <= 10; id++) fair.submit(id, 1);
    for (const attempt of started.slice(0, 3)) attempt.finish(unreachable);
    await settle();
    expect(fair.state(1)?.pausedMs).toBeLessThanOrEqual(100);
    await until(() => started.length === 4);
    started[3]?.finish(unreachable);
    await settle();
    // Twice the first pause (200 ms), less the instant it took to get here.
    expect(fair.state(1)?.pausedMs).toBeGreaterThan(100);
    await Promise.all([fair.close(), ...started.map((s) => s.finish(delivered))]);
  });

  it('lengthens the pause only when a probe fails, never for the attempts in flight when the circuit opened', async () => {
    // A fake clock: the pauses are read off it. Its timer still runs on real time, so after moving the clock the
    // test wakes the scheduler with a new delivery (submit pumps) instead of waiting seconds.
    let now = 0;
    const paused: LogFields[] = [];
    const log: Log = { info: () => {}, warn: (_msg, fields = {}) => paused.push(fields), error: () => {} };
    const { fair, started } = scheduler({ concurrency: 32, perSubscription: 16, cooldownMs: 5000 }, undefined, {
      log,
      now: () => now,
    });
    let next = 1;
    const wake = () => fair.submit(next++, 1);
    for (let i = 0; i < 6; i++) wake();
    expect(started).toHaveLength(6);

    // The receiver answers nothing: the six attempts in flight end unreachable one after another (the auditor's
    // case, a receiver answering after 8 s). The third opens the circuit for 5 s; the other three started before it
    // opened and leave the pause as it is: not doubled, not restarted.
    now = 8000;
    for (const attempt of started.slice(0, 3)) attempt.finish(unreachable);
    await settle();
    expect(fair.state(1)).toMatchObject({ open: true, pausedMs: 5000 });
    now = 9000;
    for (const attempt of started.slice(3, 6)) attempt.finish(unreachable);
    await settle();
    expect(fair.state(1)).toMatchObject({ open: true, pausedMs: 4000, running: 0 });
    expect(paused).toEqual([expect.objectContaining({ attempts_in_a_row: 3, paused_ms: 5000 })]);

    // The pause is over 5 s after it opened: one probe, alone. Each probe that finds the receiver unreachable
    // doubles the pause, up to the cap.
    let probes = 0;
    for (const pause of [10_000, 20_000, 40_000]) {
      now += fair.state(1)?.pausedMs ?? 0;
      wake();
      probes++;
      expect(started).toHaveLength(6 + probes);
      expect(fair.state(1)).toMatchObject({ open: false, running: 1 });
      now += 500;
      started.at(-1)?.finish(unreachable);
      await settle();
      expect(fair.state(1)).toMatchObject({ open: true, pausedMs: pause, running: 0 });
    }
    expect(paused.map((fields) => fields.paused_ms)).toEqual([5000, 10_000, 20_000, 40_000]);

    // The next probe reaches the receiver (an error status is an answer): the circuit closes, the whole share
    // goes out again, and a later outage starts again from the first pause.
    now += 40_000;
    for (let i = 0; i < 20; i++) wake();
    expect(fair.state(1)).toMatchObject({ running: 1, waiting: 19 });
    started.at(-1)?.finish(answered500);
    await settle();
    expect(fair.state(1)).toMatchObject({ open: false, running: 16, waiting: 3 });
    for (const attempt of started.slice(-16, -13)) attempt.finish(unreachable);
    await settle();
    expect(fair.state(1)).toMatchObject({ open: true, pausedMs: 5000 });
    await Promise.all([fair.close(), ...started.map((s) => s.finish(delivered))]);
  });
});
