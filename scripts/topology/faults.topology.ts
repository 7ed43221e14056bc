/**
 * `npm run test:topology`: the fault suite. The whole topology (scripts/topology/topology.ts) on private ports,
 * partner load through HAProxy (partner bookings and availability pushes with Idempotency-Keys and retries,
 * feed polls, a read probe, webhooks to a receiver here), and one fault at a time. For each fault it prints and
 * asserts: acknowledged writes present afterwards (all), bookings created twice after retries with the same key
 * (0), webhook deliveries lost (0), seconds from the end of the fault until the service answers again without
 * a restart (under 5), processes wedged (0). Everything it starts is stopped in afterAll, and by a watchdog if
 * this process dies first.
 *
 * Ports: QC_TOPOLOGY_PORTS (default 22000-22999), 40 consecutive free ones. QC_TOPOLOGY_POOLER=0 connects the
 * services to PostgreSQL directly instead of through PgBouncer. The processes' logs of the last run are kept in
 * <tmp>/qc-topology-faults-logs.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { parseConfig } from '../../server/core/config.ts';
import { freePortRun } from '../../server/testing/free-port.ts';
import { queuePrefix } from '../../server/webhooks/dispatcher.ts';
import { type Acked, LoadLog, paced, read, sendUntilAcked } from './load.ts';
import { Topology } from './topology.ts';

setDefaultTimeout(180_000);

const [FROM, TO] = (process.env.QC_TOPOLOGY_PORTS ?? '22000-22999').split('-').map(Number) as [number, number];
const POOLER = process.env.QC_TOPOLOGY_POOLER !== '0';
/** How long load runs before a fault, and after its end (the recovery window: the target is 5 s). */
const BEFORE_MS = 3000;
const AFTER_MS = 10_000;
/** Bookings and pushes each client sends per second: under a premium client's budget (120 and 40 a minute). */
const BOOKING_EVERY_MS = 600;
const PUSH_EVERY_MS = 1700;

interface Fixture {
  property: string;
  bookingRoom: string;
  bookingPlan: string;
  pushRoom: string;
  bookingTokens: string[];
  pushTokens: string[];
  feedToken: string;
  probeToken: string;
  readerToken: string;
}

interface Figures {
  fault: string;
  bookings: number;
  pushes: number;
  failedAttempts: number;
  retries: number;
  missing: number;
  doubled: number;
  lost: number;
  /** Seconds from the end of the fault to the last failed attempt; AFTER_MS / 1000 when it never stopped. */
  recovery: number;
  wedged: number;
  refused: number;
}

let topology: Topology | undefined;
let fixture: Fixture;
let db: ReturnType<typeof postgres> | undefined;
const figures: Figures[] = [];
const delivered = new Set<string>();
const receiver = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const body = (await request.json().catch(() => ({}))) as { data?: { booking_id?: string } };
    if (body.data?.booking_id) delivered.add(body.data.booking_id);
    return new Response('ok');
  },
});

beforeAll(async () => {
  topology = await Topology.up({
    dir: mkdtempSync(join(tmpdir(), 'qc-topology-faults-')),
    basePort: freePortRun(FROM, TO, 40),
    services: 3,
    pooler: POOLER,
    synchronous: true,
    keepOnExit: false,
  });
  fixture = await makeFixture(topology);
}, 180_000);

afterAll(async () => {
  if (figures.length) printFigures();
  await db?.end({ timeout: 1 });
  if (topology) keepLogs(topology);
  await topology?.down();
  await receiver.stop(true);
});

describe(`faults under load through HAProxy (3 processes, ${POOLER ? 'PgBouncer' : 'no pooler'}, Redis Cluster)`, () => {
  test('backend terminations every 100 ms for 15 s', async () => {
    const t = live();
    const admin = postgres(t.pg.primaryUrl('qc'), { max: 1, onnotice: () => {} });
    try {
      expectFigures(
        await underLoad('pg_terminate_backend every 100 ms, 15 s', async () => {
          const until = Date.now() + 15_000;
          while (Date.now() < until) {
            await admin`
              select pg_terminate_backend(pid) from pg_stat_activity
              where datname = 'qc' and backend_type = 'client backend' and pid <> pg_backend_pid()`.catch(() => {});
            await Bun.sleep(100);
          }
          return Date.now();
        }),
      );
    } finally {
      await admin.end({ timeout: 1 });
    }
  });

  test('kill -9 of one service process', async () => {
    const t = live();
    const victim = t.services[1];
    if (!victim) throw new Error('no second process');
    const result = await underLoad('kill -9 of one process', async () => {
      await victim.kill();
      return Date.now();
    });
    // The orchestrator starts it again; that is not part of the recovery measured.
    await t.restart(victim);
    expectFigures(result);
  });

  test('SIGTERM of one service process drains it: nothing in flight is cut', async () => {
    const t = live();
    const victim = t.services[2];
    if (!victim) throw new Error('no third process');
    let takenOutBeforeExit = false;
    const result = await underLoad('SIGTERM of one process (drain)', async () => {
      const stopped = victim.stop().then(() => Date.now());
      // Draining, it fails /readyz while still serving: HAProxy takes it out before its listener closes.
      for (let exited = false; !exited && !takenOutBeforeExit; ) {
        takenOutBeforeExit = (await t.haproxy.servers())[victim.name]?.startsWith('DOWN') === true;
        exited = victim.pid === undefined;
        await Bun.sleep(50);
      }
      return stopped;
    });
    await t.restart(victim);
    expectFigures(result);
    expect(takenOutBeforeExit).toBe(true);
    expect(result.failedAttempts).toBe(0);
  });

  test.skipIf(!POOLER)('restart of PgBouncer', async () => {
    const t = live();
    expectFigures(
      await underLoad('PgBouncer restart', async () => {
        await t.bouncer?.restart();
        return Date.now();
      }),
    );
  });

  test('loss of one Redis master (its replica takes over)', async () => {
    const t = live();
    let lost = 0;
    // The master holding the webhook queue (one slot: its prefix is a hash tag): BullMQ must follow the promotion.
    const queue = `${queuePrefix(parseConfig(t.serviceEnv()))}`;
    const result = await underLoad('loss of the Redis master holding the webhook queue', async () => {
      lost = await t.redis.killMaster(queue);
      return Date.now();
    });
    await t.redis.waitServing();
    expect(lost).toBeGreaterThan(0);
    expectFigures(result);
  });

  test('stop of the primary and promotion of the standby', async () => {
    const t = live();
    const result = await underLoad('primary stopped, standby promoted', async () => {
      await t.failover();
      return Date.now();
    });
    // Every check above read the promoted standby: the old primary is gone.
    const old = postgres(t.pg.primaryUrl('qc'), { max: 1, connect_timeout: 2, onnotice: () => {} });
    expect(
      await old`select 1`.then(
        () => 'answers',
        () => 'gone',
      ),
    ).toBe('gone');
    await old.end({ timeout: 1 });
    expectFigures(result);
  });
});

/** The services' and servers' logs of this run, kept after the folder goes (a failed fault's evidence). */
function keepLogs(t: Topology): void {
  const kept = join(tmpdir(), 'qc-topology-faults-logs');
  rmSync(kept, { recursive: true, force: true });
  mkdirSync(kept, { recursive: true });
  const logs = [
    ...t.services.map((s) => [s.logFile, `${s.name}.log`]),
    [join(t.pg.dir, 'primary', 'server.log'), 'postgres-primary.log'],
    [join(t.pg.dir, 'standby', 'server.log'), 'postgres-standby.log'],
    ...(t.bouncer ? [[join(t.bouncer.dir, 'pgbouncer.log'), 'pgbouncer.log']] : []),
  ];
  for (const [from, to] of logs) if (existsSync(from as string)) copyFileSync(from as string, join(kept, to as string));
  console.log(`logs of this run: ${kept}`);
}

function live(): Topology {
  if (!topology) throw new Error('the topology did not start');
  return topology;
}

function expectFigures(f: Figures): void {
  expect({
    missing: f.missing,
    doubled: f.doubled,
    lost: f.lost,
    wedged: f.wedged,
    refused: f.refused,
    recoveredWithin5s: f.recovery < 5,
  }).toEqual({ missing: 0, doubled: 0, lost: 0, wedged: 0, refused: 0, recoveredWithin5s: true });
}

let pushDay = 0;
let bookingNo = 0;

/**
 * Runs the load, injects the fault after BEFORE_MS (`inject` resolves with the moment the fault ended), keeps
 * the load AFTER_MS longer, then checks what was acknowledged against the database, the webhooks received,
 * and every process directly.
 */
async function underLoad(fault: string, inject: () => Promise<number>): Promise<Figures> {
  const t = live();
  const log = new LoadLog();
  const base = t.url;
  const bookings: (Acked & { externalId: string })[] = [];
  const pushes: { date: string; value: number }[] = [];
  const runId = crypto.randomUUID().slice(0, 8);

  const workers = [
    ...fixture.bookingTokens.map((token) =>
      paced(BOOKING_EVERY_MS, async () => {
        const n = ++bookingNo;
        const key = `fault-${runId}-${n}`;
        const checkin = new Date(Date.UTC(2027, 0, 1 + (n % 300)));
        const acked = await sendUntilAcked(log, `${base}/v1/qc/bookings`, {
          method: 'POST',
          token,
          key,
          body: {
            property_id: fixture.property,
            source_channel: 'QDO',
            // Every other booking also carries the PMS reference; the key alone must keep the rest single.
            ...(n % 2 ? { reference: key } : {}),
            comment: key,
            guest: { first_name: 'Fault', last_name: `Suite ${n}` },
            checkin_date: day(checkin),
            checkout_date: day(new Date(checkin.getTime() + 86_400_000)),
            rooms: [{ room_type_id: fixture.bookingRoom, rate_plan_id: fixture.bookingPlan, qty: 1, adults: 2 }],
            total_price: { amount: 120, currency: 'EUR' },
          },
        });
        const externalId = (acked?.body as { data?: { external_booking_id?: string } })?.data?.external_booking_id;
        if (acked && externalId) bookings.push({ ...acked, externalId });
      }),
    ),
    ...fixture.pushTokens.map((token) =>
      paced(PUSH_EVERY_MS, async () => {
        const date = day(new Date(Date.UTC(2027, 5, 1 + pushDay++)));
        const value = 1 + (pushDay % 97);
        const acked = await sendUntilAcked(log, `${base}/v1/qc/properties/${fixture.property}/inventory/availability`, {
          method: 'POST',
          token,
          key: `push-${runId}-${date}`,
          body: { values: [{ room_type_id: fixture.pushRoom, date_from: date, date_to: date, availability: value }] },
        });
        if (acked) pushes.push({ date, value });
      }),
    ),
    paced(500, async () => {
      await read(log, `${base}/v1/qc/booking_revisions/feed?since=0&limit=50`, fixture.feedToken);
    }),
    paced(250, async () => {
      await read(log, `${base}/v1/qc/properties/${fixture.property}/bookings?per_page=1`, fixture.probeToken);
    }),
  ];

  await Bun.sleep(BEFORE_MS);
  const faultStarted = Date.now();
  const faultEnded = await inject();
  await Bun.sleep(Math.max(0, faultEnded + AFTER_MS - Date.now()));
  await Promise.all(workers.map((w) => w.stop()));

  const lastFailure = log.lastFailureSince(faultStarted);
  const recovery = lastFailure === undefined ? 0 : Math.min(AFTER_MS, Math.max(0, lastFailure - faultEnded)) / 1000;
  const wedged = await wedgedProcesses(t);
  const counts = await checkBookings(bookings);
  const figures: Figures = {
    fault,
    bookings: bookings.length,
    pushes: pushes.length,
    failedAttempts: log.failures.length,
    retries: log.retries,
    missing: counts.missing + (await missingPushes(pushes)),
    doubled: counts.doubled,
    lost: await lostDeliveries(bookings.map((b) => b.externalId)),
    recovery,
    wedged,
    refused: log.refusals.length,
  };
  if (log.refusals.length) console.error(`${fault}: refused`, log.refusals.slice(0, 3));
  printTimeline(fault, log, faultStarted, faultEnded);
  recordFigures(figures);
  await t.waitBalanced();
  return figures;
}

/** Failed attempts by status and by second, from the fault's start (`+0`) to the end of the window. */
function printTimeline(fault: string, log: LoadLog, started: number, ended: number): void {
  const statuses: Record<string, number> = {};
  const seconds: Record<string, number> = {};
  for (const f of log.failures) {
    const what = `${f.route} ${f.status || f.reason}`;
    statuses[what] = (statuses[what] ?? 0) + 1;
    const second = Math.floor((f.at - started) / 1000);
    seconds[second] = (seconds[second] ?? 0) + 1;
  }
  console.log(
    `[fault] ${fault}: fault lasted ${((ended - started) / 1000).toFixed(1)} s; failed attempts by status ` +
      `${JSON.stringify(statuses)}, by second from its start ${JSON.stringify(seconds)}`,
  );
}

function recordFigures(f: Figures): void {
  figures.push(f);
  console.log(
    `[fault] ${f.fault}: ${f.bookings} bookings and ${f.pushes} pushes acknowledged, ${f.failedAttempts} failed attempts ` +
      `(${f.retries} retries); missing ${f.missing}, doubled ${f.doubled}, deliveries lost ${f.lost}, ` +
      `answering again ${f.recovery.toFixed(1)} s after the fault, wedged ${f.wedged}, refused ${f.refused}`,
  );
}

function printFigures(): void {
  const head = ['fault', 'acked', 'failed', 'missing', 'doubled', 'lost', 'recovery s', 'wedged'];
  const rows = figures.map((f) => [
    f.fault,
    String(f.bookings + f.pushes),
    String(f.failedAttempts),
    String(f.missing),
    String(f.doubled),
    String(f.lost),
    f.recovery >= AFTER_MS / 1000 ? `>${AFTER_MS / 1000}` : f.recovery.toFixed(1),
    String(f.wedged),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(['', line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
}

function database(): ReturnType<typeof postgres> {
  db ??= postgres(live().databaseUrl, { max: 2, onnotice: () => {}, connect_timeout: 5 });
  return db;
}

/** Acknowledged bookings not in the database, and keys that made more than one booking. */
async function checkBookings(acked: { key: string }[]): Promise<{ missing: number; doubled: number }> {
  const keys = acked.map((b) => b.key);
  if (!keys.length) return { missing: 0, doubled: 0 };
  const rows = await retryQuery(
    () => database()<{ key: string; n: number }[]>`
      select internal_comment as key, count(*)::int as n from bookings
      where internal_comment = any(${keys}) group by internal_comment`,
  );
  const count = new Map(rows.map((r) => [r.key, r.n]));
  // A booking whose every answer was lost is not acknowledged, but it may exist: count doubles over all keys.
  const [all] = await retryQuery(
    () => database()<{ doubled: number }[]>`
      select count(*)::int as doubled from (
        select internal_comment from bookings where internal_comment like 'fault-%'
        group by internal_comment having count(*) > 1) d`,
  );
  return { missing: keys.filter((k) => !count.get(k)).length, doubled: all?.doubled ?? 0 };
}

/** Acknowledged pushes whose value is not what the calendar holds. */
async function missingPushes(pushes: { date: string; value: number }[]): Promise<number> {
  if (!pushes.length) return 0;
  const dates = pushes.map((p) => p.date).sort();
  const res = await fetch(
    `${live().url}/v1/qc/properties/${fixture.property}/availability?from=${dates[0]}&to=${dates.at(-1)}`,
    { headers: { authorization: `Bearer ${fixture.readerToken}` } },
  );
  if (res.status !== 200) throw new Error(`availability read failed: ${res.status} ${await res.text()}`);
  const rooms = ((await res.json()) as { data: { rooms: { room_type_id: string; dates: Record<string, number> }[] } })
    .data.rooms;
  const held = rooms.find((r) => r.room_type_id === fixture.pushRoom)?.dates ?? {};
  return pushes.filter((p) => held[p.date] !== p.value).length;
}

/** Acknowledged bookings whose booking.created webhook has not arrived within 40 s. */
async function lostDeliveries(externalIds: string[]): Promise<number> {
  const deadline = Date.now() + 40_000;
  const missing = () => externalIds.filter((id) => !delivered.has(id)).length;
  while (missing() > 0 && Date.now() < deadline) await Bun.sleep(200);
  return missing();
}

/** Processes that, asked directly, do not serve a database read within 10 s: alive but not answering. */
async function wedgedProcesses(t: Topology): Promise<number> {
  const running = t.services.filter((s) => s.pid !== undefined);
  const answers = await Promise.all(
    running.map(async (s) => {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const ready = await fetch(`${s.url}/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
        const feed = await fetch(`${s.url}/v1/qc/booking_revisions/feed?since=0&limit=1`, {
          headers: { authorization: `Bearer ${fixture.readerToken}` },
          signal: AbortSignal.timeout(2000),
        }).catch(() => undefined);
        if (ready?.status === 200 && feed?.status === 200) return true;
        await Bun.sleep(200);
      }
      return false;
    }),
  );
  return answers.filter((ok) => !ok).length;
}

/** The check's own queries ride out the end of a failover. */
async function retryQuery<T>(query: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await query();
    } catch (err) {
      if (attempt >= 20) throw err;
      await Bun.sleep(500);
    }
  }
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Through the balancer: a demo customer, premium OAuth clients (one per load worker, so each has its own
 * budget), 500 free rooms a night in 2027 on the room type bookings use, and a webhook subscription.
 */
async function makeFixture(t: Topology): Promise<Fixture> {
  const operator = { authorization: `Bearer ${t.state.operatorToken}`, 'content-type': 'application/json' };
  const call = async <T>(method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(`${t.url}${path}`, { method, headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  type DemoProperty = {
    external_property_id: string;
    room_types: { id: string }[];
    rate_plans: { id: string; room_type_id: string; sell_type: string; parent_rate_plan_id: string | null }[];
  };
  const demo = (
    await call<{ data: { customer_id: number; personal_token: string; properties: DemoProperty[] } }>(
      'POST',
      '/ops/demo',
      {},
      operator,
    )
  ).data;
  const live = demo.properties[0] as DemoProperty;
  const [bookingRoom, pushRoom] = live.room_types.map((r) => r.id) as [string, string];
  const plan = live.rate_plans.find(
    (p) => p.room_type_id === bookingRoom && p.sell_type === 'per_room' && !p.parent_rate_plan_id,
  );
  if (!plan) throw new Error('demo has no per_room plan');
  const token = async () => {
    const client = (
      await call<{ data: { client_id: string; client_secret: string } }>(
        'POST',
        '/ops/clients',
        {
          customer_id: demo.customer_id,
          scopes: ['bookings.read', 'bookings.write', 'inventory.read', 'inventory.write'],
          property_ids: [live.external_property_id],
          tier: 'premium',
        },
        operator,
      )
    ).data;
    const res = await fetch(`${t.url}/v1/qc/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', ...client }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const personal = { authorization: `Bearer ${demo.personal_token}`, 'content-type': 'application/json' };
  await call(
    'POST',
    `/v1/qc/properties/${live.external_property_id}/inventory/availability`,
    {
      values: [{ room_type_id: bookingRoom, date_from: '2027-01-01', date_to: '2027-12-31', availability: 500 }],
    },
    personal,
  );
  await call(
    'POST',
    '/v1/qc/subscriptions',
    {
      url: `http://127.0.0.1:${receiver.port}/hooks`,
      event_types: ['booking.created'],
    },
    personal,
  );
  return {
    property: live.external_property_id,
    bookingRoom,
    bookingPlan: plan.id,
    pushRoom,
    bookingTokens: await Promise.all([1, 2, 3, 4].map(token)),
    pushTokens: await Promise.all([1, 2].map(token)),
    feedToken: await token(),
    probeToken: await token(),
    readerToken: await token(),
  };
}
