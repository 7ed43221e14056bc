/**
 * `npm run bench:webhooks`: webhook delivery to a local receiver (Bun.serve on 127.0.0.1, a process of its own that checks
 * every spec 6.1 header and signature).
 *   1. throughput: BENCH_EVENTS outbox events committed in one transaction, one subscription; deliveries
 *      per second from the commit until the receiver has them all;
 *   2. delay from a booking commit to its webhook: BENCH_BOOKINGS bookings taken one after the other
 *      through POST /ops/bookings (the platform's own channel intake), each measured from the moment its
 *      answer is back (the booking is committed) to the moment the receiver gets booking.created.
 *   3. the same delay while another customer's receiver hangs with BENCH_HUNG_EVENTS deliveries queued for it
 *      (issue 25 N4), beside 2;
 *   4. the reference of 1: BullMQ no-op jobs on the same Redis, right after each of the BENCH_FANOUT_ROUNDS rounds.
 * With 1 it prints the CPU per delivery of this process (the service), of PostgreSQL's backends of its database and
 * of the receiver, and the transactions per delivery: figures a loaded machine changes less than deliveries/s.
 *
 * DATABASE_URL and REDIS_URL are used when set (BullMQ queue), else embedded PGlite in a temporary
 * directory and the in-process queue. BENCH_POLL_MS sets the relay's poll interval (default 200).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { createDeps } from '../server/boot.ts';
import { parseConfig } from '../server/core/config.ts';
import { recordEvent } from '../server/core/outbox.ts';
import { closeRedis } from '../server/core/redis.ts';
import { createDemo } from '../server/demo/demo.ts';
import { demoSteps } from '../server/demo/demo-steps.ts';
import { childPort } from '../server/testing/free-port.ts';
import { DELIVERY_CONCURRENCY, startWebhooks } from '../server/webhooks/dispatcher.ts';
import { report } from './report.ts';
import { stats } from './stats.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 200);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 200);
const HUNG_EVENTS = Number(process.env.BENCH_HUNG_EVENTS ?? 150);
// Five: the figure is the median of the per-round ratios, and at three its rounds ran 0.44-0.66x in one run.
const FANOUT_ROUNDS = Number(process.env.BENCH_FANOUT_ROUNDS ?? 5);
const FAIR_BOOKINGS = Number(process.env.BENCH_FAIR_BOOKINGS ?? 60);
const OPERATOR = 'bench-operator-token-0123456789';
const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'qc-bench-webhooks-'));

const config = parseConfig({
  // npm run bench sets a generous bound: on a loaded machine a statement can wait past the 2 s default.
  QC_DB_TIMEOUT_MS: process.env.QC_DB_TIMEOUT_MS,
  QC_KEY_ENCRYPTION_KEY: process.env.QC_KEY_ENCRYPTION_KEY,
  QC_LOG_LEVEL: 'silent',
  QC_OPERATOR_TOKEN: OPERATOR,
  QC_DEMO_ON_EMPTY: '0',
  QC_WEBHOOK_ALLOW_PRIVATE: '1',
  QC_DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL || undefined,
  REDIS_URL: process.env.REDIS_URL || undefined,
});
const deps = await createDeps(config);
const app = buildApp(deps, { operatorToken: OPERATOR });
const demo = await createDemo(deps, demoSteps);
const live = demo.properties[0];
if (!live) throw new Error('demo has no property');
const [property] = await deps.db.sql<{
  id: number;
}>`select id from properties where external_id = ${live.external_property_id}`;
const [pair] = await deps.db.sql<{ room_type_id: number; rate_plan_id: number }>`
  select rr.room_type_id, rr.rate_plan_id from rate_plan_rooms rr join rate_plans p on p.id = rr.rate_plan_id
  where p.property_id = ${property?.id ?? 0} and p.parent_id is null and p.sell_type = 'per_room' limit 1`;
if (!property || !pair) throw new Error('demo property has no per_room rate plan');

// The receiver, a process of its own (bench/servers/webhook-receiver.ts): arrival time per event id, in ms since
// the epoch as both processes read it.
const now = () => performance.timeOrigin + performance.now();
const arrivals = new Map<string, number>();
let waiter: { count: number; resolve: () => void } | undefined;
const receiverPort = childPort();
let receiver: ReturnType<typeof Bun.spawn> | undefined;
async function startReceiver(secret: string) {
  const proc = Bun.spawn([process.execPath, 'bench/servers/webhook-receiver.ts', String(receiverPort)], {
    env: { ...process.env, BENCH_WEBHOOK_SECRET: secret },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  receiver = proc;
  const ready = (async () => {
    for await (const chunk of proc.stderr) if (new TextDecoder().decode(chunk).includes('ready')) return;
  })();
  void (async () => {
    let rest = '';
    for await (const chunk of proc.stdout) {
      const lines = (rest + new TextDecoder().decode(chunk)).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const [id, at] = line.split(' ');
        if (id === 'bad') throw new Error(`the receiver refused a delivery: ${at}`);
        arrivals.set(id as string, Number(at));
      }
      if (waiter && arrivals.size >= waiter.count) waiter.resolve();
    }
  })();
  await ready;
}
const until = (count: number) =>
  new Promise<void>((resolve) => {
    waiter = { count, resolve };
    if (arrivals.size >= count) resolve();
  });

const request = async (method: string, path: string, token: string, body: unknown) => {
  const res = await app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
};

const subscription = await request('POST', '/v1/qc/subscriptions', demo.personal_token, {
  url: `http://127.0.0.1:${receiverPort}/hooks`,
  event_types: ['booking.created', 'booking.modified'],
  property_ids: [live.external_property_id],
});
await startReceiver(subscription.secret as string);
const webhooks = await startWebhooks(deps, {
  pollMs: POLL_MS,
  ...(process.env.BENCH_CONCURRENCY ? { concurrency: Number(process.env.BENCH_CONCURRENCY) } : {}),
});

console.log(`webhooks, ${deps.db.kind}, ${webhooks.queue} queue, relay poll ${POLL_MS} ms, local receiver`);

// 1. Throughput, in FANOUT_ROUNDS rounds, each followed at once by the reference (BullMQ no-op jobs, see 4), so
// both see the same load: the machine's load swings the queue's own ceiling from about 2k to 8k jobs/s.
// CPU per delivery (machine-independent, unlike deliveries/s on a shared machine): this process (the service's
// relay, scheduler and attempts), PostgreSQL's backends of this database and the receiver, from the commit to the
// last arrival; and the transactions committed in this database meanwhile.
const cpuUs: number[] = [];
const pgCpuUs: number[] = [];
const receiverCpuUs: number[] = [];
const commitsPer: number[] = [];
async function pgSnapshot(): Promise<{ cpu: number; commits: number }> {
  const [row] = await deps.db.sql<{ pids: number[]; commits: number }>`
    select (select array_agg(pid) from pg_stat_activity where datname = current_database()) as pids,
      (select xact_commit from pg_stat_database where datname = current_database())::float8 as commits`;
  let cpu = 0;
  for (const pid of row?.pids ?? [])
    try {
      cpu += procCpuUs(pid);
    } catch {}
  return { cpu, commits: Number(row?.commits ?? 0) };
}
function procCpuUs(pid: number | 'self'): number {
  // Fields 14 and 15 of /proc/<pid>/stat (after the command name in parentheses): utime, stime, in ticks of 10 ms.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function fanOut(round: number): Promise<number> {
  arrivals.clear();
  const started = now();
  await deps.db.tx(async (tx) => {
    for (let i = 0; i < EVENTS; i++) {
      await recordEvent(tx, {
        type: 'booking.modified',
        customerId: demo.customer_id,
        propertyId: property?.id ?? 0,
        data: {
          booking_id: `BENCH-${round}-${i}`,
          revision_id: i + 1,
          checkin_date: '2027-01-10',
          checkout_date: '2027-01-12',
        },
      });
    }
  });
  const committed = now();
  const self0 = procCpuUs('self');
  const receiver0 = receiver ? procCpuUs(receiver.pid) : 0;
  const pg0 = await pgSnapshot();
  await until(EVENTS);
  // From the commit to the last arrival as the receiver stamped it (its lines reach this process a moment later).
  let last = committed;
  for (const at of arrivals.values()) if (at > last) last = at;
  const seconds = (last - committed) / 1000;
  cpuUs.push((procCpuUs('self') - self0) / EVENTS);
  if (receiver) receiverCpuUs.push((procCpuUs(receiver.pid) - receiver0) / EVENTS);
  // Let the last success records commit before PostgreSQL's share is read.
  await Bun.sleep(200);
  const pg1 = await pgSnapshot();
  pgCpuUs.push((pg1.cpu - pg0.cpu) / EVENTS);
  commitsPer.push((pg1.commits - pg0.commits) / EVENTS);
  console.log(
    `  throughput: ${EVENTS} deliveries in ${seconds.toFixed(2)} s after the commit = ${(EVENTS / seconds).toFixed(0)} deliveries/s` +
      ` (commit of ${EVENTS} events took ${((committed - started) / 1000).toFixed(2)} s)`,
  );
  return EVENTS / seconds;
}
const fanOutRates: number[] = [];
const queueCeilings: number[] = [];
for (let round = 0; round < FANOUT_ROUNDS; round++) {
  fanOutRates.push(await fanOut(round));
  if (process.env.REDIS_URL) queueCeilings.push(await bullmqNoOps(process.env.REDIS_URL, EVENTS));
}

// 2. Booking commit -> webhook.
async function bookingDelays(count: number): Promise<number[]> {
  arrivals.clear();
  const delays: number[] = [];
  for (let i = 0; i < count; i++) {
    const expected = arrivals.size + 1;
    const res = await app.handle(
      new Request('http://localhost/ops/bookings', {
        method: 'POST',
        headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          property_id: live?.external_property_id,
          channel: 'QDO',
          guest: { first_name: 'Bench', last_name: `Guest ${i}`, email: `bench${i}@example.com` },
          checkin_date: '2027-02-01',
          checkout_date: '2027-02-03',
          rooms: [{ room_type_id: pair?.room_type_id, rate_plan_id: pair?.rate_plan_id, adults: 2 }],
          total_price: { amount: 240 },
        }),
      }),
    );
    const answered = now();
    if (res.status !== 200) throw new Error(`POST /ops/bookings: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    const [event] = await deps.db.sql<{ event_id: string }>`
      select event_id from outbox_events where customer_id = ${demo.customer_id} and type = 'booking.created'
      order by id desc limit 1`;
    await until(expected);
    const arrived = event ? arrivals.get(event.event_id) : undefined;
    if (arrived === undefined) throw new Error('booking webhook missing');
    delays.push(arrived - answered);
  }
  return delays;
}
const delays = await bookingDelays(BOOKINGS);
const delay = stats(delays);
const fmt = (x: number) => x.toFixed(1);
console.log(
  `  booking commit -> webhook (${BOOKINGS} bookings via POST /ops/bookings): median ${fmt(delay.median)} ms  p95 ${fmt(delay.p95)} ms  p99 ${fmt(delay.p99)} ms  max ${fmt(delay.max)} ms`,
);

// 3. Fairness (issue 25 N4): another customer's receiver accepts connections and never answers, with HUNG_EVENTS
// deliveries queued for it ahead of the bookings; the same bookings as in 2, their delay beside 2's (alone).
const hungServer = Bun.serve({ port: 0, hostname: '127.0.0.1', idleTimeout: 0, fetch: () => new Promise(() => {}) });
const other = await createDemo(deps, demoSteps);
const otherLive = other.properties[0];
if (!otherLive) throw new Error('demo has no property');
await request('POST', '/v1/qc/subscriptions', other.personal_token, {
  url: `http://127.0.0.1:${hungServer.port}/hooks`,
  event_types: ['booking.modified'],
  property_ids: [otherLive.external_property_id],
});
const [otherProperty] = await deps.db.sql<{ id: number }>`
  select id from properties where external_id = ${otherLive.external_property_id}`;
await deps.db.tx(async (tx) => {
  for (let i = 0; i < HUNG_EVENTS; i++) {
    await recordEvent(tx, {
      type: 'booking.modified',
      customerId: other.customer_id,
      propertyId: otherProperty?.id ?? 0,
      data: { booking_id: `HUNG-${i}`, revision_id: i + 1, checkin_date: '2027-01-10', checkout_date: '2027-01-12' },
    });
  }
});
// Let the relay queue them, so the bookings below wait behind them as they would.
await Bun.sleep(POLL_MS * 2);
const beside = stats(await bookingDelays(FAIR_BOOKINGS));
console.log(
  `  with a hung receiver and ${HUNG_EVENTS} deliveries queued for it (${FAIR_BOOKINGS} bookings): median ${fmt(beside.median)} ms  p95 ${fmt(beside.p95)} ms  p99 ${fmt(beside.p99)} ms  max ${fmt(beside.max)} ms`,
);
// The hung receiver's connections close first, so stopping does not wait out the attempts' deadline.
hungServer.stop(true);
await webhooks.stop();

// 4. Reference: BullMQ itself on the same Redis, EVENTS no-op jobs added in bulk and run at the dispatcher's
// concurrency (the queue's own ceiling on this machine), measured right after each fan-out round (see 1).
const rate = stats(fanOutRates).median;
const queueCeiling = queueCeilings.length ? stats(queueCeilings).median : undefined;
const fanOutRatio = queueCeilings.length
  ? stats(fanOutRates.map((r, i) => r / (queueCeilings[i] as number))).median
  : undefined;
console.log(
  `  CPU per delivery (us, per round): service ${cpuUs.map((c) => c.toFixed(0)).join(', ')}; PostgreSQL ${pgCpuUs
    .map((c) => c.toFixed(0))
    .join(', ')}; receiver ${receiverCpuUs.map((c) => c.toFixed(0)).join(', ')}; transactions per delivery ${commitsPer
    .map((c) => c.toFixed(2))
    .join(', ')}`,
);
if (queueCeiling)
  console.log(
    `  reference: BullMQ no-op jobs, same concurrency: ${queueCeilings.map((r) => r.toFixed(0)).join(', ')} jobs/s`,
  );
report([
  {
    bench: 'webhooks',
    name: `webhook fan-out, ${EVENTS} deliveries, ${webhooks.queue} queue, signed, local receiver (deliveries/s, median of ${FANOUT_ROUNDS})`,
    value: rate,
    unit: '/s',
    // Issue 27: half of BullMQ's own ceiling measured in the same rounds (the median of the per-round ratios);
    // without Redis there is no such reference and the old absolute floor stands.
    ...(queueCeiling && fanOutRatio
      ? {
          reference: 'BullMQ no-op jobs, right after each round',
          referenceValue: queueCeiling,
          ratio: fanOutRatio,
          target: '>= 0.5x',
          met: fanOutRatio >= 0.5,
          range: `rounds ${fanOutRates.map((r, i) => (r / (queueCeilings[i] as number)).toFixed(2)).join(', ')}x`,
        }
      : { target: '>= 1000/s', met: rate >= 1000 }),
  },
  {
    bench: 'webhooks',
    name: 'booking commit -> webhook at the receiver: median',
    value: delay.median,
    unit: 'ms',
    target: '< 10 ms',
    met: delay.median < 10,
    range: `p95 ${delay.p95.toFixed(1)} ms, p99 ${delay.p99.toFixed(1)} ms`,
  },
  {
    bench: 'webhooks',
    name: `booking commit -> webhook, another receiver hung with ${HUNG_EVENTS} queued: p95`,
    value: beside.p95,
    unit: 'ms',
    reference: 'the same, no hung receiver (p95)',
    referenceValue: delay.p95,
    ratio: delay.p95 / beside.p95,
    target: '< 100 ms',
    met: beside.p95 < 100,
    range: `median ${beside.median.toFixed(1)} ms, p99 ${beside.p99.toFixed(1)} ms`,
  },
]);
receiver?.kill();
await receiver?.exited;
if (deps.redis) await closeRedis(deps.redis);
await deps.db.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });

async function bullmqNoOps(redisUrl: string, jobs: number): Promise<number> {
  const { Queue, Worker } = await import('bullmq');
  const { Redis } = await import('ioredis');
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const prefix = `qc-bench-noop-${crypto.randomUUID()}`;
  const queue = new Queue('noop', { connection, prefix, defaultJobOptions: { removeOnComplete: true } });
  let done = 0;
  let finished!: () => void;
  const all = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const worker = new Worker(
    'noop',
    async () => {
      if (++done === jobs) finished();
    },
    { connection, prefix, concurrency: Number(process.env.BENCH_CONCURRENCY ?? DELIVERY_CONCURRENCY) },
  );
  await worker.waitUntilReady();
  const started = performance.now();
  await queue.addBulk(
    Array.from({ length: jobs }, (_, i) => ({ name: 'noop', data: { i }, opts: { jobId: `noop-${i}` } })),
  );
  await all;
  const rate = jobs / ((performance.now() - started) / 1000);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  return rate;
}
