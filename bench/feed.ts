/**
 * `npm run bench:feed`: latency of the booking revision feed poll on real PostgreSQL.
 *
 *   DATABASE_URL=postgres://... npm run bench:feed     (default: the local qc_bookings database)
 *
 * One live property holds 100000 revisions (10000 bookings x 10 revisions, real snapshot payloads) and
 * one consumer has 1000 of them unacked, in two shapes: a consumer lagging behind (the newest 1000
 * unacked) and one whose acks went missing here and there (every 100th unacked). Each poll goes through
 * the whole pipeline (app.handle: auth, rate-limit accounting, the query, JSON) with limit=100, either as
 * a restart (since=0: the acked revisions before the first unacked one are skipped by the query) or
 * resuming from next_cursor. Also timed: one ack, and the query alone. Writes a fresh demo customer.
 */
import { buildApp } from '../server/app.ts';
import { advanceWatermark, feedPage } from '../server/bookings/feed.ts';
import { createBooking } from '../server/bookings/intake.ts';
import { createDeps } from '../server/boot.ts';
import { createDemo } from '../server/demo/demo.ts';
import { demoSteps } from '../server/demo/demo-steps.ts';
import { createClient } from '../server/oauth/clients.ts';
import { benchConfig } from './bench-config.ts';
import { report } from './report.ts';
import { type Stats, stats, timed } from './stats.ts';

const OPERATOR = 'bench-operator-token-0123456789';
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/qc_bookings';
const POLLS = Number(process.env.BENCH_POLLS ?? 300);
const BOOKINGS = 10_000;
const REVISIONS_PER_BOOKING = 10;
const UNACKED = 1000;

const fmt = (x: number) => x.toFixed(2).padStart(7);
function line(label: string, s: Stats) {
  console.log(
    `  ${label.padEnd(58)} median ${fmt(s.median)} ms  p95 ${fmt(s.p95)} ms  p99 ${fmt(s.p99)} ms  (n=${s.n})`,
  );
}

/** Every figure here follows 20 unmeasured warm-up calls. */
const warmTimed = (n: number, fn: (i: number) => Promise<unknown>) => timed(n, fn, 20);

const config = benchConfig({ DATABASE_URL: databaseUrl, QC_OPERATOR_TOKEN: OPERATOR });
const deps = await createDeps(config, {
  enforceRateLimits: false,
  redisKeyPrefix: `qc-bench-feed:${crypto.randomUUID()}:`,
});
const app = buildApp(deps, { operatorToken: OPERATOR });
const db = deps.db;

const demo = await createDemo(deps, demoSteps);
const [live] = await db.sql<{ id: number; external_id: string }>`
  select id, external_id::text from properties where external_id = ${demo.properties[0]?.external_property_id}`;
if (!live) throw new Error('demo has no live property');
const property = live;
const rooms = demo.properties[0] as unknown as {
  room_types: { id: string }[];
  rate_plans: { id: string; room_type_id: string; sell_type: string }[];
};
const room = rooms.room_types[0]?.id as string;
const plan = rooms.rate_plans.find((p) => p.room_type_id === room && p.sell_type === 'per_room')?.id as string;

console.log(`seeding ${BOOKINGS * REVISIONS_PER_BOOKING} revisions on one property ...`);
const t0 = performance.now();
const template = await createBooking(deps, {
  propertyId: live.id,
  channel: 'BDC',
  guest: { firstName: 'Bench', lastName: 'Guest', email: 'bench@example.com', phone: '+351900000000' },
  checkinDate: '2027-03-01',
  checkoutDate: '2027-03-04',
  rooms: [{ roomTypeId: room, ratePlanId: plan, qty: 1, adults: 2 }],
  totalPrice: 450,
});
const [rev] = await db.sql<{
  payload: Record<string, unknown>;
}>`select payload from booking_revisions where id = ${template.revisionId}`;
const run = crypto.randomUUID().slice(0, 8);
await db.sql`
  insert into bookings (property_id, external_booking_id, source_channel, status, checkin_date, checkout_date, currency_code, total_amount)
  select ${live.id}, ${`bench-${run}-`} || i, 'BDC', 'confirmed', date '2027-03-01', date '2027-03-04', 'EUR', 450
  from generate_series(1, ${BOOKINGS}) i`;
await db.sql`
  insert into booking_revisions (booking_id, property_id, revision_type, payload, created_at)
  select b.id, ${live.id}, case when r = 1 then 'created' else 'modified' end,
    jsonb_set(${rev?.payload}::jsonb, '{external_booking_id}', to_jsonb(b.external_booking_id)), now()
  from generate_series(1, ${REVISIONS_PER_BOOKING}) r
  cross join lateral (select id, external_booking_id from bookings where property_id = ${live.id} and external_booking_id like ${`bench-${run}-%`}) b
  order by r, b.id`;
await db.sql`analyze booking_revisions`;
await db.sql`analyze booking_revision_acks`;
const [{ total, mine } = { total: 0, mine: 0 }] = await db.sql<{ total: number; mine: number }>`
  select (select count(*)::int from booking_revisions) as total,
    (select count(*)::int from booking_revisions where property_id = ${live.id}) as mine`;
console.log(
  `  ${total} revisions in the table, ${mine} on the property (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);

/** A consumer on both demo properties with every revision of the property acked except `unacked(rank)`. */
async function consumer(name: string, unacked: string) {
  const c = await createClient(deps, {
    kind: 'personal',
    customerId: demo.customer_id,
    name,
    scopes: ['bookings.read'],
    accountScoped: false,
    propertyIds: demo.properties.map((p) => p.external_property_id),
    endpointScopes: [],
  });
  await db.query(
    `insert into booking_revision_acks (consumer_id, revision_id)
     select $1, id from (select id, row_number() over (order by id) as rank, count(*) over () as n
       from booking_revisions where property_id = $2) r
     where not (${unacked})`,
    [c.id, property.id],
  );
  // What acking through the API does as it goes (the acks are seeded straight into the table here).
  await advanceWatermark(db, c.id, property.id);
  const [first] = await db.sql<{ id: number; pending: number }>`
    select min(r.id) as id, count(*)::int as pending from booking_revisions r
    where r.property_id = ${property.id} and not exists (select 1 from booking_revision_acks a where a.consumer_id = ${c.id} and a.revision_id = r.id)`;
  return { token: c.secret, pk: c.id, firstUnacked: first?.id as number, pending: first?.pending as number };
}

const poll = async (token: string, since: number) => {
  const res = await app.handle(
    new Request(`http://localhost/v1/qc/booking_revisions/feed?since=${since}&limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  if (res.status !== 200) throw new Error(`feed answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { data: { booking_revisions: unknown[] } };
  if (body.data.booking_revisions.length !== 100) throw new Error('short page');
};

await db.sql`analyze booking_revision_acks`;
const lagging = await consumer('lagging', `rank > n - ${UNACKED}`);
const holes = await consumer('holes', 'rank % 100 = 0');
await db.sql`analyze booking_revision_acks`;
console.log(`\nfeed poll, limit=100 (consumer with ${lagging.pending} and ${holes.pending} unacked)`);
const restart = stats(await warmTimed(POLLS, () => poll(lagging.token, 0)));
line('lagging consumer, restart poll (since=0)', restart);
line(
  'lagging consumer, resuming from its cursor',
  stats(await warmTimed(POLLS, () => poll(lagging.token, lagging.firstUnacked - 1))),
);
const gaps = stats(await warmTimed(POLLS, () => poll(holes.token, 0)));
line('consumer with scattered gaps, restart poll (since=0)', gaps);
line(
  'consumer with scattered gaps, resuming mid-table',
  stats(await warmTimed(POLLS, (i) => poll(holes.token, holes.firstUnacked + 50_000 + (i % 100)))),
);
// The same allow-list as the polls (both demo properties): the second one holds no revisions here, the shape in
// which the planner once walked the whole table (server/bookings/feed.ts, ONE_PROPERTY_IN_ID_ORDER).
const allowList = (
  await db.sql<{
    id: number;
  }>`select id from properties where external_id = any(${demo.properties.map((p) => p.external_property_id)}::uuid[])`
).map((p) => p.id);
const queryAlone = stats(
  await warmTimed(POLLS, () => feedPage(db, { consumerId: lagging.pk, propertyIds: allowList, since: 0, limit: 100 })),
);
line('query alone (feedPage), lagging consumer, since=0', queryAlone);

const ids = await db.sql<{
  id: number;
}>`select id from booking_revisions where property_id = ${live.id} order by id desc limit ${POLLS + 20}`;
const ack = async (i: number) => {
  const res = await app.handle(
    new Request(`http://localhost/v1/qc/booking_revisions/${ids[i]?.id}/ack`, {
      method: 'POST',
      headers: { authorization: `Bearer ${lagging.token}` },
    }),
  );
  if (res.status !== 200) throw new Error(`ack answered ${res.status}`);
};
const acks = stats(await warmTimed(POLLS, (i) => ack(i)));
line('ack of one revision', acks);

// The regression guard (issue 17) is the lagging consumer's restart poll; the scattered-gaps consumer reads
// some 10000 acked rows per page by design (README, revision feed) and is shown beside it without a target.
report([
  {
    bench: 'feed',
    name: `feed poll, ${BOOKINGS * REVISIONS_PER_BOOKING} revisions, ${UNACKED} unacked, restart poll: p99`,
    value: restart.p99,
    unit: 'ms',
    reference: 'the feed query alone, p99',
    referenceValue: queryAlone.p99,
    ratio: queryAlone.p99 / restart.p99,
    target: '< 20 ms',
    met: restart.p99 < 20,
    range: `median ${restart.median.toFixed(2)} ms`,
  },
  {
    bench: 'feed',
    name: 'feed poll, scattered gaps (every 100th unacked), restart: p99',
    value: gaps.p99,
    unit: 'ms',
    range: `median ${gaps.median.toFixed(2)} ms`,
  },
  {
    bench: 'feed',
    name: 'ack of one revision: median',
    value: acks.median,
    unit: 'ms',
    range: `p99 ${acks.p99.toFixed(2)} ms`,
  },
]);

await deps.actors.drain();
await db.close();
process.exit();
