/**
 * `npm run bench:volume`: the hot paths on a LARGE database beside the same operations on a SMALL one, in one
 * run, alternating (issue 24). Prints, per operation, each database's p99 and the ratio large / small, and
 * exits non-zero when a ratio misses its target (p99 within 1.2x; a push during a retention pass within 1.1x
 * of pushes without one).
 *
 * The large database is built fast with set-based SQL into the real tables (generate_series, consistent with
 * every constraint): 10000 properties (9 in 10 in the demo account, the rest in ten other accounts), three room
 * types and a rate plan each, 30 M calendar day-rows (availability and rates 400 days, restrictions 200, from
 * 150 days back so retention has months to drop), 2 M booking revisions, the legacy property with 10000 future
 * bookings, a million relayed outbox events of the last 85 days with delivered deliveries (inside the 90-day
 * retention, as a database that runs retention holds). The small one: 20 properties, the same shapes, a few
 * thousand rows, and as many of the measured property's bookings as fill the same answers. Both get the demo,
 * a 50-room bench property, and six feed consumers.
 *
 * Writes, then reads, rounds alternating which database goes first; then four blocks of two pushers at once
 * on the large database without and with a retention pass running (5000 old deliveries and events a block).
 * 8 to 16 minutes on a quiet two-core machine, by the machine (build 1.5-3, writes 1.5-3.5, reads 4-7, retention 1-2).
 *
 * Flags: --tcp (connect over loopback TCP, not the Unix socket; see TCP below), --only compare|retention (one part), --scale F (large sizes times F; 0.01 to develop), --rounds N (25), --db-prefix NAME (qc_volume:
 * databases NAME_large and NAME_small, dropped and rebuilt unless --reuse), --reuse (keep built databases),
 * --match TEXT (only the operations whose label holds TEXT), --samples FILE (every measured call, as JSON), --waits
 * (what the large database's backends wait on beside the retention passes and without).
 */
import { existsSync } from 'node:fs';
import postgres from 'postgres';
import { buildApp } from '../server/app.ts';
import { scopeOf } from '../server/bookings/feed-account.ts';
import { createDeps } from '../server/boot.ts';
import { sha256Hex } from '../server/core/auth/secrets.ts';
import { addDays, formatDay, localToday, todayIn } from '../server/core/days.ts';
import type { Db } from '../server/core/db/db.ts';
import type { Deps } from '../server/core/deps.ts';
import { createDemo } from '../server/demo/demo.ts';
import { demoSteps } from '../server/demo/demo-steps.ts';
import { addRatePlan, addRoomType, type Ref } from '../server/inventory/test-fixtures.ts';
import { insertProperty } from '../server/properties/insert-property.ts';
import { runRetention } from '../server/retention/retention-pass.ts';
import { relayBatch } from '../server/webhooks/relay.ts';
import { benchConfig } from './bench-config.ts';
import { type Stats, stats } from './stats.ts';
import { formatWaits, sampleWaits } from './wait-sampler.ts';

const flag = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const SCALE = Number(flag('--scale', '1'));
const ROUNDS = Number(flag('--rounds', '25'));
const PREFIX = flag('--db-prefix', 'qc_volume');
const REUSE = process.argv.includes('--reuse');
// Both databases are reached over the server's Unix socket where it has one; --tcp: over loopback TCP. Over TCP,
// about one answer in a hundred of 0.5 MB (a feed page of 500) stalls 10-40 ms on either database alike: a packet
// capture shows the server's side pause mid-answer after the client's ACK, with its statement long finished (none
// over 12 ms in PostgreSQL's log) and the window open. Through the socket the same polls stall a quarter as
// often or less. The stalls are the transport's, not the data's, and decided which side a page-of-500 p99 landed on
// (docs/performance.md, "the page-of-500 stalls: the transport").
const SOCKET_DIR = '/var/run/postgresql';
const TCP = process.argv.includes('--tcp') || !existsSync(`${SOCKET_DIR}/.s.PGSQL.5432`);
// --only compare | retention: one part of the run (to repeat it on built databases).
const ONLY = flag('--only', '');
// --match TEXT: only the operations whose label contains TEXT (to look at one of them on built databases).
const MATCH = flag('--match', '');
// --samples FILE: every measured call's milliseconds, per operation and database in call order, as JSON.
const SAMPLES_FILE = flag('--samples', '');
// --waits: what the large database's backends wait on beside the retention passes and without (bench/wait-sampler.ts).
const WAITS = process.argv.includes('--waits');
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const OPERATOR = 'bench-operator-token-0123456789';
const TARGET = 1.2;
const RETENTION_TARGET = 1.1;
/**
 * Retention blocks (an even number: see retentionDuringPushes) and the old deliveries and events each one's pass
 * removes. 5000 rather than 10000: the pushes' slowing beside a pass depends on its pace (a twentieth of the
 * time, batches.ts), not on its length, and the shorter passes leave the run a few minutes shorter.
 */
const RETENTION_BLOCKS = 4;
const RETENTION_BLOCK_ROWS = 5_000;
/** How old the last block's rows are (past the events' 180 days), and the days between two blocks' rows. */
const BLOCK_AGE_DAYS = 185;
const BLOCK_SPACING_DAYS = 100;

interface Size {
  properties: number;
  calendarDays: number;
  revisions: number;
  futureBookings: number;
  /** Over how many days from tomorrow the legacy property's future bookings check in. */
  futureSpreadDays: number;
  outboxEvents: number;
}
const LARGE: Size = {
  properties: Math.max(50, Math.round(10_000 * SCALE)),
  calendarDays: 400,
  revisions: Math.max(2000, Math.round(2_000_000 * SCALE)),
  futureBookings: Math.max(200, Math.round(10_000 * SCALE)),
  futureSpreadDays: 300,
  outboxEvents: Math.max(1000, Math.round(1_000_000 * SCALE)),
};
// The small database is small everywhere except where an answer would otherwise be smaller than the large
// one's: the measured property holds 1200 future bookings, so both databases fill the same pages (the list's
// 50 bookings, a feed page of 500, a consumer 1000 revisions behind) and each ratio compares one answer. They
// check in over 35 days rather than 300, so the list's 30 days hold as many as the large one's (1030 against
// 1019): the list answers their total, which it counts. Spread over 300 days, the small list counted 122 and
// its median was 2.5 against 2.9 ms, a different answer.
const SMALL: Size = {
  properties: 20,
  calendarDays: 400,
  revisions: 2000,
  futureBookings: 1200,
  futureSpreadDays: 35,
  outboxEvents: 1000,
};

const log = (text: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${text}`);

// The bench property: 50 room types, a per_person plan with five manual codes (as bench:inventory's).
const ROOMS = 50;
const CODES = ['A1', 'A2', 'A3', 'AEB', 'CEB'];
const TIME_ZONE = 'UTC';

interface World {
  name: string;
  deps: Deps;
  app: ReturnType<typeof buildApp>;
  token: string;
  bench: { id: number; externalId: string; rooms: Ref[]; plan: Ref };
  /** The retention storm's own property (retentionDuringPushes), made with the world. */
  storm: World['bench'];
  legacy: { apiKey: string; propertyId: number; externalId: string; rooms: number[] };
  consumers: Record<string, string>;
}

async function database(name: string): Promise<boolean> {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    const [found] = await admin`select 1 from pg_database where datname = ${name}`;
    if (found && REUSE) return true;
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
    return false;
  } finally {
    await admin.end();
  }
}

async function world(label: string, size: Size): Promise<World> {
  const name = `${PREFIX}_${label}`;
  const built = await database(name);
  const deps = await createDeps(
    benchConfig({
      DATABASE_URL: TCP
        ? `postgres://postgres@127.0.0.1:5432/${name}`
        : `postgres://postgres@localhost:5432/${name}?host=${SOCKET_DIR}`,
      QC_OPERATOR_TOKEN: OPERATOR,
      // The build's bulk statements run for minutes; the measured calls are far below it.
      QC_DB_TIMEOUT_MS: '600000',
    }),
    { enforceRateLimits: false },
  );
  const app = buildApp(deps, { operatorToken: OPERATOR });
  if (!built) await build(deps, label, size);
  const [meta] = await deps.db.sql<{ world: World }>`select world from bench_volume`;
  return { ...(meta?.world as World), name: label, deps, app };
}

/**
 * A bulk load in one transaction with the foreign-key triggers off (session_replication_role = replica) and
 * no wait for the WAL flush: the rows are generated consistent with every key, and checking 30 M of them one
 * by one would take most of the 15 minutes.
 */
function bulk(db: Deps['db'], fn: (tx: Deps['db']) => Promise<void>): Promise<void> {
  return db.tx(async (tx) => {
    await tx.query('set local session_replication_role = replica');
    await tx.query('set local synchronous_commit = off');
    await fn(tx);
  });
}

/** A live property of `customer` with the bench's rooms and plan (as bench:inventory's). */
async function benchHotel(db: Db, customer: number, name: string): Promise<World['bench']> {
  const property = await insertProperty(db, {
    customerId: customer,
    name,
    currency: 'EUR',
    timezone: TIME_ZONE,
    mode: 'live',
  });
  const rooms: Ref[] = [];
  for (let i = 0; i < ROOMS; i++) rooms.push(await addRoomType(db, property.id));
  const plan = await addRatePlan(db, property.id, {
    sellType: 'per_person',
    pairs: rooms.map((r) => ({
      roomTypeId: r.id,
      occupancies: CODES.map((code) => ({ code, kind: 'manual' as const })),
    })),
  });
  return { id: property.id, externalId: property.external_id, rooms, plan };
}

/** Everything a world needs, in set-based SQL where it is bulk; remembered in bench_volume for --reuse. */
async function build(deps: Deps, label: string, size: Size): Promise<void> {
  const db = deps.db;
  const started = performance.now();
  const demo = await createDemo(deps, demoSteps);
  const customer = demo.customer_id;
  const legacyDemo = demo.legacy as { api_key: string; property_id: number; room_ids: number[] };
  const bench = await benchHotel(db, customer, 'Bench Hotel');
  // Made here, not by the storm: a property added to the account later changes every account consumer's
  // allow-list, and so which position applies to it (feed-account.ts).
  const storm = await benchHotel(db, customer, 'Storm Hotel');

  // Properties: nine in ten in the demo account, the rest in ten other accounts.
  const others = (
    await db.sql<{ id: number }>`
      insert into customers (name) select 'Volume ' || g from generate_series(1, 10) g returning id`
  ).map((r) => r.id);
  await db.sql`
    insert into properties (customer_id, name, currency, timezone, mode)
    select case when g % 10 = 0 then (${others}::bigint[])[1 + (g / 10) % 10] else ${customer} end, 'Bulk ' || g, 'EUR', 'UTC', 'live'
    from generate_series(1, ${size.properties}::int) g`;
  await db.sql`
    insert into room_types (property_id, name) select p.id, 'Room ' || k from properties p, generate_series(1, 3) k
    where p.name like 'Bulk %'`;
  await db.sql`
    insert into rate_plans (property_id, name, sell_type) select id, 'BAR', 'per_room' from properties where name like 'Bulk %'`;
  log(`${label}: ${size.properties} properties`);

  // The calendar, from 150 days back (retention has whole past months to drop), in chunks of properties.
  const today = formatDay(todayIn('UTC', new Date()));
  const start = addDays(today, -150);
  await db.sql`select qc_calendar_months('', ${start}::date, (${start}::date + ${size.calendarDays}::int))`;
  const [range] = await db.sql<{ lo: number; hi: number }>`
    select min(id) as lo, max(id) as hi from properties where name like 'Bulk %'`;
  const chunk = 500;
  const chunks: number[] = [];
  for (let lo = range?.lo ?? 0; lo <= (range?.hi ?? -1); lo += chunk) chunks.push(lo);
  let built = 0;
  // Two chunks at a time, one a core: a chunk's statements are one backend's work, and the load is CPU-bound.
  await inTurn(chunks, 2, async (lo) => {
    const hi = lo + chunk - 1;
    await bulk(db, async (db) => {
      await db.sql`
      insert into availability (property_id, room_type_id, date, offered, booked)
      select rt.property_id, rt.id, ${start}::date + d, 5, 0 from room_types rt, generate_series(0, ${size.calendarDays - 1}::int) d
      where rt.property_id between ${lo} and ${hi}`;
      await db.sql`
      insert into rates (property_id, rate_plan_id, room_type_id, date, prices)
      select rt.property_id, rp.id, rt.id, ${start}::date + d, '{"ROOM": 100}'::jsonb
      from rate_plans rp join room_types rt on rt.property_id = rp.property_id, generate_series(0, ${size.calendarDays - 1}::int) d
      where rp.property_id between ${lo} and ${hi}`;
      await db.sql`
      insert into restrictions (property_id, rate_plan_id, room_type_id, date, min_los)
      select rt.property_id, rp.id, rt.id, ${start}::date + d, 2
      from rate_plans rp join room_types rt on rt.property_id = rp.property_id, generate_series(0, ${size.calendarDays / 2 - 1}::int) d
      where rp.property_id between ${lo} and ${hi}`;
    });
    if (++built % 4 === 0) log(`${label}: calendar, ${built * chunk} of ${size.properties} properties`);
  });
  const [days] = await db.sql<{ n: number }>`
    select (select count(*) from availability) + (select count(*) from rates) + (select count(*) from restrictions) as n`;
  log(`${label}: ${Number(days?.n).toLocaleString('en-US')} calendar day-rows`);

  // The feed: bookings of the bulk properties, two revisions each, with a real revision's payload.
  const [sample] = await db.sql<{ payload: unknown }>`
    select payload from booking_revisions where property_id = ${legacyDemo.property_id} order by id limit 1`;
  const payload = JSON.stringify(sample?.payload ?? {});
  await bulk(db, async (db) => {
    await db.sql`
    insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date, currency_code, total_amount)
    select ${range?.lo}::bigint + g % ${size.properties}::int, 'bulk-' || g, 'BDC', 'confirmed', ${start}::date + g % 500, ${start}::date + g % 500 + 2, 'EUR', 200
    from generate_series(1, ${Math.floor(size.revisions / 2)}::int) g`;
    await db.sql`
    insert into booking_revisions (booking_id, property_id, customer_id, revision_type, payload)
    select b.id, b.property_id, p.customer_id, v.t, ${payload}::jsonb
    from bookings b join properties p on p.id = b.property_id cross join (values ('created'), ('modified')) v(t)
    where b.external_booking_id like 'bulk-%' order by b.id, v.t`;
  });
  log(`${label}: ${size.revisions} booking revisions`);

  // The legacy property's future bookings (with rooms, and a revision each in the modern feed).
  const [legacyPlan] = await db.sql<{ id: number }>`
    select id from rate_plans where property_id = ${legacyDemo.property_id} and parent_id is null order by id limit 1`;
  const legacyRoom = legacyDemo.room_ids[0] as number;
  await db.sql`
    insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date,
      guest_first_name, guest_last_name, currency_code, total_amount)
    select ${legacyDemo.property_id}, 'future-' || g, 'BDC', 'confirmed', ${today}::date + 1 + g % ${size.futureSpreadDays}, ${today}::date + 3 + g % ${size.futureSpreadDays},
      'Vol', 'Guest ' || g, 'EUR', 200
    from generate_series(1, ${size.futureBookings}::int) g`;
  await db.sql`
    insert into booking_rooms (booking_id, room_type_id, rate_plan_id, checkin_date, checkout_date, price)
    select id, ${legacyRoom}, ${legacyPlan?.id}, checkin_date, checkout_date, 200 from bookings where external_booking_id like 'future-%'`;
  await db.sql`
    insert into booking_revisions (booking_id, property_id, customer_id, revision_type, payload)
    select b.id, b.property_id, p.customer_id, 'created', ${payload}::jsonb from bookings b join properties p on p.id = b.property_id
    where b.external_booking_id like 'future-%' order by b.id`;
  const legacyProperty = await db.sql<{
    external_id: string;
  }>`select external_id from properties where id = ${legacyDemo.property_id}`;

  // The webhook history: relayed events, delivered deliveries (half of them old enough for retention). A body
  // of 850 bytes fills each page with 8 deliveries: at 800 every page kept a 648-byte hole that the vacuum
  // below records, two relayed deliveries (312 bytes) fit in, and each relay pass then wrote its 100
  // deliveries two a page across 50 pages of the history (a read and a full-page image each), a layout that
  // grew with the history and that no real database has (retention frees whole pages).
  const [subscription] = await db.sql<{ id: number }>`
    insert into subscriptions (customer_id, created_by, url, event_types, secret, created_at, updated_at, all_properties)
    select ${customer}, id, 'https://hooks.example.invalid/volume', '{booking.created}', 'volume-secret', now(), now(), true
    from api_clients where customer_id = ${customer} order by id limit 1 returning id`;
  await bulk(db, async (db) => {
    await db.sql`
    insert into outbox_events (type, customer_id, property_id, data, created_at, relayed_at)
    select 'booking.created', ${customer}, ${bench.id}, '{}', now() - make_interval(days => 1 + g % 85), now() - make_interval(days => 1 + g % 85)
    from generate_series(1, ${size.outboxEvents}::int) g`;
    await db.sql`
    insert into deliveries (subscription_id, customer_id, outbox_event_id, event_type, body, secret_version, status, attempts, created_at, delivered_at)
    select ${subscription?.id}, customer_id, id, type, repeat('x', 850), 1, 'delivered', 1, created_at, created_at
    from outbox_events where customer_id = ${customer} and relayed_at is not null and id % 2 = 0`;
  });
  log(`${label}: ${size.outboxEvents} outbox events, their deliveries`);

  // Six feed consumers: new, lagging and caught up; the legacy property alone, and the whole account.
  const consumers: Record<string, string> = {};
  const allowed = (
    await db.sql<{ id: number }>`
      select p.id from properties p left join property_groups g on g.id = p.group_id
      where p.customer_id = ${customer} and p.status = 'active' and not coalesce(g.paused, false)`
  ).map((r) => r.id);
  const [marks] = await db.sql<{ account_last: number; account_lag: number; one_last: number; one_lag: number }>`
    select
      (select max(r.id) from booking_revisions r join properties p on p.id = r.property_id where p.customer_id = ${customer}) as account_last,
      (select r.id from booking_revisions r join properties p on p.id = r.property_id where p.customer_id = ${customer}
        order by r.id desc offset 1000 limit 1) as account_lag,
      (select max(id) from booking_revisions where property_id = ${legacyDemo.property_id}) as one_last,
      (select id from booking_revisions where property_id = ${legacyDemo.property_id} order by id desc offset 1000 limit 1) as one_lag`;
  for (const state of ['new', 'lagging', 'caught_up'] as const) {
    for (const scope of ['one', 'account'] as const) {
      const token = `qc_volume_${state}_${scope}_${crypto.randomUUID().replaceAll('-', '')}`;
      const [client] = await db.sql<{ id: number }>`
        insert into api_clients (client_id, kind, customer_id, name, secret_hash, scopes, account_scoped, property_ids)
        values (${crypto.randomUUID()}, 'personal', ${customer}, ${`volume ${state} ${scope}`}, ${sha256Hex(token)},
          '{bookings.read}', ${scope === 'account'}, ${scope === 'one' ? [legacyDemo.property_id] : []}::bigint[])
        returning id`;
      consumers[`${state}_${scope}`] = token;
      if (state === 'new') continue;
      const through =
        scope === 'account' ? (state === 'lagging' ? marks?.account_lag : marks?.account_last) : undefined;
      if (scope === 'account') {
        await db.sql`insert into booking_feed_positions (consumer_id, scope, acked_through)
          values (${client?.id}, ${scopeOf(allowed)}, ${through ?? 0})`;
        // And the per-property watermarks acks through there leave (feed.ts advanceWatermark), as a real consumer has;
        // retention has been behind them (pruned_through), as it is in a database that runs it: the build stores no
        // acks, and a first pass walked all 18000 pairs for 30 s and more (a one-off, server/retention/feed-acks.ts).
        await db.sql`
          insert into booking_feed_watermarks (consumer_id, property_id, acked_through, pruned_through)
          select ${client?.id}, r.property_id, max(r.id), max(r.id) from booking_revisions r
          where r.property_id = any(${allowed}::bigint[]) and r.id <= ${through ?? 0}
          group by r.property_id`;
      } else
        await db.sql`insert into booking_feed_watermarks (consumer_id, property_id, acked_through)
          values (${client?.id}, ${legacyDemo.property_id}, ${(state === 'lagging' ? marks?.one_lag : marks?.one_last) ?? 0})`;
    }
  }

  const world: Omit<World, 'deps' | 'app' | 'name'> = {
    token: demo.personal_token,
    bench,
    storm,
    legacy: {
      apiKey: legacyDemo.api_key,
      propertyId: legacyDemo.property_id,
      externalId: legacyProperty[0]?.external_id as string,
      rooms: legacyDemo.room_ids,
    },
    consumers,
  };
  await db.sql`create table bench_volume (world jsonb not null)`;
  await db.sql`insert into bench_volume values (${world as unknown as Record<string, unknown>}::jsonb)`;

  // The legacy revisions: stored by a first getBookings, then all but the last 20 acked (the PMS keeps up).
  const first = await legacyCall(
    { ...world, deps, app: buildApp(deps, { operatorToken: OPERATOR }), name: label },
    'GET',
    'booking/getBookings',
  );
  if (first.status !== 200) throw new Error(`first getBookings answered ${first.status}`);
  await db.sql`
    update legacy_booking_revisions set acked_at = now() where id in (
      select id from legacy_booking_revisions l where l.booking_id in (
        select id from bookings where property_id = ${legacyDemo.property_id})
      order by id desc offset 20)`;
  await inTurn(
    [
      'availability',
      'rates',
      'restrictions',
      'bookings',
      'booking_revisions',
      'outbox_events',
      'deliveries',
      'legacy_booking_revisions',
      'properties',
      'room_types',
    ],
    2,
    (table) => db.query(`vacuum analyze ${table}`),
  );
  log(`${label}: built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** `work` on every item, at most `width` at once, each worker taking the next item when it is done. */
async function inTurn<T>(items: T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

// ---- the operations ----

const request = (w: World, method: string, path: string, token: string, body?: unknown) =>
  w.app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );

function legacyCall(w: World, method: string, path: string, query: Record<string, string> = {}, body?: unknown) {
  const url = new URL(`http://localhost/api/pms/v1/${path}`);
  url.searchParams.set('api_key', w.legacy.apiKey);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return w.app.handle(
    new Request(url.toString(), { method, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
}

/** Per room, twenty consecutive 20-day ranges from tomorrow: 1000 rows, 20000 day-rows. */
function ranges(w: World) {
  const first = todayIn(TIME_ZONE, new Date()) + 1;
  return w.bench.rooms.flatMap((room) =>
    Array.from({ length: 20 }, (_, j) => ({
      room,
      date_from: formatDay(first + j * 20),
      date_to: formatDay(first + j * 20 + 19),
    })),
  );
}

interface Operation {
  label: string;
  /**
   * Calls per round on each database: cheap operations run many times, so that their p99 (1000 samples: the
   * tenth slowest) is not one hiccup of the machine (at 200 samples it was the second slowest).
   */
  reps: number;
  /** Measured in the writes phase (see compare). */
  writes?: boolean;
  status: number;
  run(w: World, k: number): Promise<Response>;
}

const push =
  (endpoint: string, row: (k: number) => Record<string, unknown>, withPlan: boolean): Operation['run'] =>
  (w, k) =>
    request(w, 'POST', `/v1/qc/properties/${w.bench.externalId}/inventory/${endpoint}`, w.token, {
      values: ranges(w).map(({ room, ...range }) => ({
        room_type_id: room.external_id,
        ...(withPlan ? { rate_plan_id: w.bench.plan.external_id } : {}),
        ...range,
        ...row(k),
      })),
    });

const priceOf = (k: number) => Object.fromEntries(CODES.map((code, i) => [code, 100 + i * 10 + (k % 50)]));
const today = () => localToday(TIME_ZONE, new Date());

const OPERATIONS: Operation[] = [
  {
    label: 'push rates, 20000 day-rows',
    writes: true,
    reps: 4,
    status: 202,
    run: push('rates', (k) => ({ prices: priceOf(k) }), true),
  },
  {
    label: 'push availability, 20000 day-rows',
    writes: true,
    reps: 4,
    status: 202,
    run: push('availability', (k) => ({ availability: k % 7 }), false),
  },
  {
    label: 'push restrictions, 20000 day-rows',
    writes: true,
    reps: 4,
    status: 202,
    run: push('restrictions', (k) => ({ min_los: 1 + (k % 5), stop_sell: k % 2 === 0 }), true),
  },
  {
    label: 'per-plan rate write, 1000 rows',
    writes: true,
    // 300 samples: at 100 its p99 was the second slowest, and missed in two runs of five with medians 2-3 % apart
    // (99.5 against 78.9 ms, medians 37.3 / 36.7). About 0.5 s a round.
    reps: 12,
    status: 200,
    run: (w, k) =>
      request(
        w,
        'POST',
        `/v1/qc/properties/${w.bench.externalId}/rate_plans/${w.bench.plan.external_id}/rates`,
        w.token,
        {
          values: w.bench.rooms.flatMap((room) =>
            Array.from({ length: 20 }, (_, d) => ({
              room_type_id: room.external_id,
              date: addDays(today(), 1 + d),
              prices: priceOf(k + d),
            })),
          ),
        },
      ),
  },
  {
    label: 'availability read, a year',
    // 600 samples: at 150 its p99 was the second slowest, and decided by the two slowest of each side (52.1 against
    // 36.5 ms with the p98 at 36.9 / 33.9 and medians 20.6 / 21.4; 1.67x in another run). About 1 s a round.
    reps: 24,
    status: 200,
    run: (w) =>
      request(
        w,
        'GET',
        `/v1/qc/properties/${w.bench.externalId}/availability?from=${today()}&to=${addDays(today(), 364)}`,
        w.token,
      ),
  },
  {
    label: 'rates read, a year',
    reps: 6,
    status: 200,
    run: (w) =>
      request(
        w,
        'GET',
        `/v1/qc/properties/${w.bench.externalId}/rate_plans/${w.bench.plan.external_id}/rates?from=${today()}&to=${addDays(today(), 364)}`,
        w.token,
      ),
  },
  ...(['new', 'lagging', 'caught_up'] as const).flatMap((state) =>
    (['one', 'account'] as const).flatMap((scope) =>
      [100, 500].map(
        (limit): Operation => ({
          label: `feed poll, ${state.replace('_', ' ')}, ${scope === 'one' ? 'one property' : 'whole account'}, limit ${limit}`,
          // 3000 samples (1500 for a page of 500, 4-11 ms a poll: its halves of 1500 met by 0.85-1.05x in a run
          // of 3000, and it was a third of the run's time): at 1000 a poll's p99 was which side ten hiccups of the machine or of this process landed
          // on, with equal medians (caught up: 2.2 against 1.5 ms at 0.3 a poll; a page of 500: 40.8 against 10.8
          // ms in one run, 15.1 against 53.5 in another, at 4.3 a poll). About 6 s more a round. A caught-up poll
          // (0.1-0.3 ms) gets more: its p99 is the machine's, not the poll's. About 1.5 % of any call to PostgreSQL
          // here stalls 1-2 ms (a bare `select 1` too), so a 0.1 ms poll's p99 falls on the edge of those stalls
          // and moved 0.6-1.4 ms from run to run at 3000 (1.36x and 0.66x with equal medians); 12000 for the
          // account's, 40000 for one property's (about 10 s a run each).
          reps: state === 'caught_up' ? (scope === 'one' ? 1600 : 480) : limit === 500 ? 60 : 120,
          status: 200,
          run: (w) =>
            request(
              w,
              'GET',
              `/v1/qc/booking_revisions/feed?since=0&limit=${limit}`,
              w.consumers[`${state}_${scope}`] as string,
            ),
        }),
      ),
    ),
  ),
  {
    label: 'booking list, status and check-in filters',
    reps: 40,
    status: 200,
    run: (w) =>
      request(
        w,
        'GET',
        `/v1/qc/properties/${w.legacy.externalId}/bookings?booking_status=confirmed&checkin_from=${today()}&checkin_to=${addDays(today(), 30)}`,
        w.token,
      ),
  },
  { label: 'legacy getBookings', reps: 40, status: 200, run: (w) => legacyCall(w, 'GET', 'booking/getBookings') },
  {
    label: 'legacy updateAvailability, 100 rows x 30 days',
    writes: true,
    // 600 samples: at 100 its p99 was the second slowest (37.0 against 25.6 ms once, medians 17.7 / 16.7), at 300
    // the third (1.17x, its halves 1.05x and 1.31x).
    reps: 24,
    status: 200,
    run: (w, k) =>
      legacyCall(
        w,
        'POST',
        'availability/updateAvailability',
        {},
        {
          values: Array.from({ length: 100 }, (_, r) => ({
            room_id: w.legacy.rooms[r % 2],
            date_from: addDays(today(), (r >> 1) * 14),
            date_to: addDays(today(), (r >> 1) * 14 + 29),
            qty: (k + r) % 7,
          })),
        },
      ),
  },
];

/**
 * Unmeasured calls of each read at the start of its turn in a round, on each database. The first three calls
 * after the switch from another operation (and the full collection before it) were 3.4 times slower at the
 * median (0.44 against 0.13 ms for the caught-up poll), on both databases alike. They were 2.5 % of the samples,
 * so a sub-millisecond poll's p99 was the slowest of those 36 first calls: 5.8 against 3.8 ms, where the other
 * 1404 calls' p99s were 0.62 against 0.51 (docs/performance.md, "The first calls after a switch").
 */
const WARMUP_REPS = 3;
/** Calls of each operation in the unmeasured first round. */
const WARMUP_ROUND_REPS = 10;

const RELAY_LABEL = 'webhook relay pass, 100 events';
// 600 passes: at 100 the p99 was the slowest pass of each side (15.1 against 12.2 ms with medians 6.5 / 6.2), at
// 300 the third slowest (1.13-1.16x with medians 1-2 % apart).
const RELAY_REPS = 24;

/** A relay pass over 100 fresh events (the subscription turns each into a delivery). */
async function relayPass(w: World): Promise<number> {
  await w.deps.db.sql`
    insert into outbox_events (type, customer_id, property_id, data)
    select 'booking.created', p.customer_id, p.id, '{}' from properties p, generate_series(1, 100) where p.id = ${w.bench.id}`;
  const t0 = performance.now();
  const { events } = await relayBatch(w.deps, 500);
  const ms = performance.now() - t0;
  if (events < 100) throw new Error(`relay pass relayed ${events} events`);
  return ms;
}

async function timedCall(op: Operation, w: World, k: number): Promise<number> {
  const t0 = performance.now();
  const res = await op.run(w, k);
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== op.status) throw new Error(`${w.name} ${op.label}: ${res.status} ${text.slice(0, 300)}`);
  return ms;
}

interface Row {
  label: string;
  large: Stats;
  small: Stats;
  target: number;
}

async function compare(large: World, small: World): Promise<Row[]> {
  const samples = new Map<string, { large: number[]; small: number[] }>();
  const add = (label: string, which: 'large' | 'small', ms: number) => {
    const entry = samples.get(label) ?? { large: [], small: [] };
    entry[which].push(ms);
    samples.set(label, entry);
  };
  // Writes first, then reads, each phase after a checkpoint: the pushes write about 100 MB of WAL a round,
  // and a checkpoint or a garbage collection they leave behind landed on whichever 1 ms read ran next,
  // which made a read's p99 the pushes' (2-3x with equal medians, on either database by turns).
  const chosen = OPERATIONS.filter((op) => op.label.includes(MATCH));
  const relayChosen = RELAY_LABEL.includes(MATCH);
  const phases = [chosen.filter((op) => op.writes), chosen.filter((op) => !op.writes)];
  for (const [phase, operations] of phases.entries()) {
    if (operations.length === 0 && (phase === 1 || !relayChosen)) continue;
    await large.deps.db.query('checkpoint');
    // One warm-up round, unmeasured; then rounds alternating which database goes first.
    for (let round = -1; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [large, small] : [small, large];
      for (const op of operations) {
        // The garbage of the operation before is collected here, not during this one's samples.
        Bun.gc(true);
        const warmup = op.writes ? 0 : WARMUP_REPS;
        // The warm-up round runs each operation a few times (its code compiled, its pages read), not all its reps.
        const reps = round < 0 ? Math.min(op.reps, WARMUP_ROUND_REPS) : op.reps;
        for (let rep = -warmup; rep < reps; rep++) {
          for (const w of order) {
            const ms = await timedCall(op, w, (round + 1) * 10 + rep);
            if (round >= 0 && rep >= 0) add(op.label, w === large ? 'large' : 'small', ms);
          }
        }
      }
      if (phase === 0 && relayChosen) {
        Bun.gc(true);
        for (let rep = 0; rep < RELAY_REPS; rep++) {
          for (const w of order) {
            const ms = await relayPass(w);
            if (round >= 0) add(RELAY_LABEL, w === large ? 'large' : 'small', ms);
          }
        }
      }
      if (round >= 0) log(`${phase === 0 ? 'writes' : 'reads'}: round ${round + 1}/${ROUNDS}`);
    }
  }
  if (SAMPLES_FILE) await Bun.write(SAMPLES_FILE, JSON.stringify(Object.fromEntries(samples), null, 1));
  const order = [...OPERATIONS.map((op) => op.label), RELAY_LABEL];
  return order.flatMap((label) => {
    const s = samples.get(label);
    return s ? [{ label, large: stats(s.large), small: stats(s.small), target: TARGET }] : [];
  });
}

/**
 * Pushes on the large database with and without a retention pass running beside them (two pushers at
 * once: a storm), in alternating blocks; the pass has old deliveries, outbox events and calendar months to
 * remove. Answers push p99 with the pass against without.
 */
async function retentionDuringPushes(w: World): Promise<Row> {
  const op = OPERATIONS[1] as Operation;
  const quiet: number[] = [];
  const during: number[] = [];
  // The pushes go to a property of their own. They pushed the bench property, on the large database only: after
  // them its day-rows lay at the end of every month, on 406 pages a month against 28 on the small one (4 rows a
  // page: moved there beside the other pusher's), and a later `--reuse` run read the year of availability
  // 1.56x slower there with nothing else different. The property is the world's (build): made here, it changed
  // the account consumers' allow-list, and a `--reuse` run found them positioned for another one.
  const stormed: World = { ...w, bench: w.storm };
  // Unmeasured: its first pushes insert its day-rows; the measured ones rewrite them, as the bench property's did.
  for (let k = 0; k < 4; k++) await timedCall(op, stormed, k);
  const storm = async (into: number[], k: number) => {
    const pushes = Array.from({ length: 2 }, async (_, i) => into.push(await timedCall(op, stormed, k * 2 + i)));
    await Promise.all(pushes);
  };
  const [subscription] = await w.deps.db.sql<{ id: number; customer_id: number }>`
    select id, customer_id from subscriptions where url = 'https://hooks.example.invalid/volume'`;
  // Something for each pass to remove, old delivered deliveries and their events, put in for every block at once
  // before the first. Block b's rows are BLOCK_AGE_DAYS + BLOCK_SPACING_DAYS * (blocks - 1 - b) days old, and its
  // pass keeps deliveries and events that many days longer than the defaults (90 and 180), so each pass finds its
  // block's rows past both and the next block's within them; every other step runs as it does by default. Put in
  // before each block, the rows' own writes (10000 a block) slowed the pushes right after them, and that landed on
  // whichever side each block measured first: pass-first blocks were 5-37 % slower at the median, quiet-first
  // ones 1-14 % (docs/performance.md, "Eighth session").
  await bulk(w.deps.db, async (db) => {
    // Below the lowest ids, oldest lowest, as rows made that long ago have: the pass takes the oldest first in id
    // order, and back-dated rows at the newest ids made each of its batches walk the million young ones first.
    await db.sql`
      insert into outbox_events (id, type, customer_id, property_id, data, created_at, relayed_at)
      select (select min(id) from outbox_events) - g, 'booking.created', ${subscription?.customer_id}, ${w.bench.id}, '{}', at, at
      from generate_series(1, ${RETENTION_BLOCKS * RETENTION_BLOCK_ROWS}::int) g,
        lateral (select now() - make_interval(days => ${BLOCK_AGE_DAYS} + ${BLOCK_SPACING_DAYS} * ((g - 1) / ${RETENTION_BLOCK_ROWS}))) a(at)`;
    await db.sql`
      insert into deliveries (id, subscription_id, customer_id, outbox_event_id, event_type, body, secret_version, status, attempts, created_at, delivered_at)
      select (select min(id) from deliveries) - row_number() over (order by id desc), ${subscription?.id}, customer_id, id, type,
        repeat('x', 800), 1, 'delivered', 1, created_at, created_at
      from outbox_events where relayed_at < now() - make_interval(days => ${BLOCK_AGE_DAYS - 1})
        and not exists (select from deliveries d where d.outbox_event_id = outbox_events.id)`;
  });
  // Its pages written out, then pushes unmeasured until the writes after that checkpoint settle.
  await w.deps.db.query('checkpoint');
  for (let k = 0; k < 10; k++) await storm([], k);
  const waits = WAITS ? sampleWaits(ADMIN_URL, `${PREFIX}_${w.name}`) : undefined;
  let passMs = 15_000;
  for (let block = 0; block < RETENTION_BLOCKS; block++) {
    // Without a pass, for as long as the pass beside it ran: both sides get about as many samples, so neither
    // p99 is the worst of a handful.
    const quietly = async () => {
      const quietUntil = performance.now() + Math.min(Math.max(passMs, 15_000), 60_000);
      waits?.side('without');
      for (let k = 0; k < 4 || performance.now() < quietUntil; k++) await storm(quiet, block * 1000 + k);
      waits?.side(undefined);
    };
    const [quietBefore, duringBefore] = [quiet.length, during.length];
    if (block % 2 === 0) await quietly();
    const passStarted = performance.now();
    const later = BLOCK_SPACING_DAYS * (RETENTION_BLOCKS - 1 - block);
    const retention = w.deps.config.retention;
    const config = {
      ...w.deps.config,
      retention: {
        ...retention,
        deliveryDays: retention.deliveryDays + later,
        outboxDays: retention.outboxDays + later,
      },
    };
    const pass = runRetention(w.deps.db, config, new Date()).then((report) => {
      log(`retention pass: ${JSON.stringify(report)}`);
    });
    let k = 0;
    let done = false;
    void pass.finally(() => {
      done = true;
    });
    waits?.side('beside');
    while (!done || k < 4) await storm(during, block * 1000 + 500 + k++);
    waits?.side(undefined);
    await pass;
    passMs = performance.now() - passStarted;
    if (block % 2 === 1) await quietly();
    const median = (xs: number[]) => stats(xs).median.toFixed(1);
    log(
      `retention block ${block + 1}/${RETENTION_BLOCKS}: push median ${median(during.slice(duringBefore))} ms beside the pass (${(passMs / 1000).toFixed(1)} s), ${median(quiet.slice(quietBefore))} without`,
    );
  }
  if (waits)
    log(
      `active backends of the large database by statement and wait event, on average:\n${formatWaits(await waits.stop())}`,
    );
  return {
    label: 'push during a retention pass (vs without)',
    large: stats(during),
    small: stats(quiet),
    target: RETENTION_TARGET,
  };
}

const large = await world('large', LARGE);
const small = await world('small', SMALL);
log(`both databases ready; measuring, connected over ${TCP ? 'loopback TCP' : `the Unix socket in ${SOCKET_DIR}`}`);
const fmt = (x: number) => x.toFixed(1).padStart(8);
let missed = 0;
function print(row: Row): void {
  const ratio = row.large.p99 / row.small.p99;
  const ok = ratio <= row.target;
  if (!ok) missed++;
  console.log(
    `${row.label.padEnd(58)} ${fmt(row.large.p99)} ${fmt(row.small.p99)}  ${ratio.toFixed(2).padStart(5)}x  <= ${row.target}x ${ok ? 'met' : 'MISSED'}  (n=${row.large.n}/${row.small.n}; medians ${row.large.median.toFixed(1)} / ${row.small.median.toFixed(1)})`,
  );
}

const rows = ONLY === 'retention' ? [] : await compare(large, small);
console.log(
  `\nbench:volume, p99 in ms (n per database), large: ${LARGE.properties} properties, ~${Math.round((LARGE.properties * 3 * LARGE.calendarDays * 2.5) / 1e6)} M day-rows, ${LARGE.revisions} revisions; small: ${SMALL.properties} properties`,
);
console.log(`${'operation'.padEnd(58)} ${'large'.padStart(8)} ${'small'.padStart(8)}   ratio  target`);
for (const row of rows) print(row);
// Printed before the retention blocks, which take a few minutes more.
if (ONLY !== 'compare') print(await retentionDuringPushes(large));
console.log(missed ? `\n${missed} ratio(s) missed the target` : '\nevery ratio within its target');
await large.deps.db.close();
await small.deps.db.close();
process.exit(missed ? 1 : 0);
