/**
 * `npm run bench:inventory`: how fast the inventory pushes write, on real PostgreSQL.
 *
 *   DATABASE_URL=postgres://... npm run bench:inventory     (default: the local qc_inventory database)
 *
 * For a live property with 50 room types: a 1000-row push expanding to 20000 day-rows of prices (a per_person
 * plan with five codes), of availability and of restrictions, each timed through the whole HTTP pipeline
 * (app.handle: auth, validation, the property's actor, the upsert that rewrites changed days only, the
 * outbox event); the same pushes repeated unchanged; raw SQL bulk upserts of the same day-rows (arrays
 * prepared in advance, one INSERT .. ON CONFLICT, no diff), each timed in the round of its push, right after
 * it, for the ours/raw ratio; ten properties pushing at once over a real socket; and a sustained autocannon
 * run. Writes fresh demo customers into the database it is given.
 */
import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import { createDeps } from '../server/boot.ts';
import { addYears, formatDay, todayIn } from '../server/core/days.ts';
import type { Db } from '../server/core/db/db.ts';
import type { Deps } from '../server/core/deps.ts';
import { createDemo } from '../server/demo/demo.ts';
import { demoSteps } from '../server/demo/demo-steps.ts';
import { addRatePlan, addRoomType, type Ref } from '../server/inventory/test-fixtures.ts';
import { insertProperty } from '../server/properties/insert-property.ts';
import { benchConfig } from './bench-config.ts';
import { report } from './report.ts';
import { type Stats, stats } from './stats.ts';

const OPERATOR = 'bench-operator-token-0123456789';
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/qc_inventory';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const ROOMS = 50;
const DAYS_PER_ROW = 20;
const ROWS_PER_ROOM = 20;
const DAY_ROWS = ROOMS * ROWS_PER_ROOM * DAYS_PER_ROW;
const CODES = ['A1', 'A2', 'A3', 'AEB', 'CEB'];
const TIME_ZONE = 'Europe/Lisbon';

const fmt = (x: number) => x.toFixed(1).padStart(7);
const perSecond = (dayRows: number, ms: number) => Math.round((dayRows / ms) * 1000).toLocaleString('en-US');
function line(label: string, s: Stats, dayRows = DAY_ROWS) {
  console.log(
    `  ${label.padEnd(50)} median ${fmt(s.median)} ms  p95 ${fmt(s.p95)} ms  ${perSecond(dayRows, s.median).padStart(9)} day-rows/s  (n=${s.n})`,
  );
}

interface BenchProperty {
  id: number;
  externalId: string;
  rooms: Ref[];
  plan: Ref;
}

/** A live property with 50 room types and a per_person plan pricing five manual codes on each. */
async function benchProperty(db: Db, customerId: number, name: string): Promise<BenchProperty> {
  const property = await insertProperty(db, { customerId, name, currency: 'EUR', timezone: TIME_ZONE, mode: 'live' });
  const rooms: Ref[] = [];
  for (let i = 0; i < ROOMS; i++) rooms.push(await addRoomType(db, property.id));
  const occupancies = CODES.map((code) => ({ code, kind: 'manual' as const }));
  const plan = await addRatePlan(db, property.id, {
    sellType: 'per_person',
    pairs: rooms.map((r) => ({ roomTypeId: r.id, occupancies })),
  });
  return { id: property.id, externalId: property.external_id, rooms, plan };
}

/** Per room, twenty consecutive 20-day ranges from tomorrow: 1000 rows, 20000 day-rows inside the window. */
function ranges(p: BenchProperty) {
  const first = todayIn(TIME_ZONE, new Date()) + 1;
  return p.rooms.flatMap((room) =>
    Array.from({ length: ROWS_PER_ROOM }, (_, j) => ({
      room,
      date_from: formatDay(first + j * DAYS_PER_ROW),
      date_to: formatDay(first + j * DAYS_PER_ROW + DAYS_PER_ROW - 1),
    })),
  );
}

const priceOf = (k: number) => Object.fromEntries(CODES.map((code, i) => [code, 100 + i * 10 + (k % 50)]));

function priceBody(p: BenchProperty, k: number): string {
  const prices = priceOf(k);
  return JSON.stringify({
    values: ranges(p).map(({ room, ...range }) => ({
      room_type_id: room.external_id,
      rate_plan_id: p.plan.external_id,
      ...range,
      prices,
    })),
  });
}

function availabilityBody(p: BenchProperty, k: number): string {
  return JSON.stringify({
    values: ranges(p).map(({ room, ...range }) => ({ room_type_id: room.external_id, ...range, availability: k % 7 })),
  });
}

function restrictionBody(p: BenchProperty, k: number): string {
  return JSON.stringify({
    values: ranges(p).map(({ room, ...range }) => ({
      room_type_id: room.external_id,
      rate_plan_id: p.plan.external_id,
      ...range,
      min_los: 1 + (k % 5),
      stop_sell: k % 2 === 0,
    })),
  });
}

async function main() {
  const config = benchConfig({ DATABASE_URL: databaseUrl, QC_OPERATOR_TOKEN: OPERATOR });
  const deps = await createDeps(config, { enforceRateLimits: false });
  const app = buildApp(deps, { operatorToken: OPERATOR });
  // Earlier runs leave dead row versions behind, and this machine runs PostgreSQL with autovacuum off.
  for (const table of ['availability', 'rates', 'restrictions']) await deps.db.query(`vacuum analyze ${table}`);
  const demo = await createDemo(deps, demoSteps);
  const token = demo.personal_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const property = await benchProperty(deps.db, demo.customer_id, 'Bench Hotel');

  const push = async (p: BenchProperty, endpoint: string, body: string) => {
    const res = await app.handle(
      new Request(`http://localhost/v1/qc/properties/${p.externalId}/inventory/${endpoint}`, {
        method: 'POST',
        headers,
        body,
      }),
    );
    const text = await res.text();
    if (res.status !== 202) throw new Error(`${endpoint} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text).data as { written: number; unchanged: number };
  };
  const raw = await rawStatements(deps, property);
  /**
   * Times one push per round, and right after it in the same round each raw reference statement, so a change
   * of load on this shared machine moves both sides alike. Bodies are built before the clock starts.
   */
  const timePushes = async <R extends string>(
    endpoint: string,
    bodyOf: (k: number) => string,
    expectWritten: boolean,
    references: Record<R, (k: number) => Promise<unknown>> = {} as Record<R, never>,
  ) => {
    const bodies = Array.from({ length: ROUNDS + 2 }, (_, k) => bodyOf(expectWritten ? k + 1 : 0));
    if (!expectWritten) await push(property, endpoint, bodies[0] as string);
    const samples: number[] = [];
    const referenceSamples = Object.fromEntries(Object.keys(references).map((name) => [name, [] as number[]]));
    for (const [k, body] of bodies.entries()) {
      const t0 = performance.now();
      const data = await push(property, endpoint, body);
      const elapsed = performance.now() - t0;
      if (data.written + data.unchanged !== DAY_ROWS) throw new Error(`${endpoint}: ${JSON.stringify(data)}`);
      if (expectWritten ? data.written !== DAY_ROWS : data.unchanged !== DAY_ROWS)
        throw new Error(`${endpoint}: ${JSON.stringify(data)}`);
      if (k >= 2) samples.push(elapsed);
      for (const [name, run] of Object.entries(references) as [R, (k: number) => Promise<unknown>][]) {
        const r0 = performance.now();
        await run(k + 1);
        if (k >= 2) referenceSamples[name]?.push(performance.now() - r0);
      }
    }
    const reference = Object.fromEntries(
      Object.entries(referenceSamples).map(([name, list]) => [name, stats(list)]),
    ) as Record<R, Stats>;
    return { ours: stats(samples), reference };
  };

  console.log(
    `\nInventory pushes: 1000 rows expanding to ${DAY_ROWS} day-rows, live property, ${ROOMS} room types (${databaseUrl.replace(/\/\/[^@]*@/, '//')})`,
  );
  const pricePushes = await timePushes('rates', (k) => priceBody(property, k), true, {
    rates: raw.rates,
    ratesDistinct: raw.ratesDistinct,
  });
  const prices = pricePushes.ours;
  line('POST /inventory/rates (per_person, 5 codes), all written', prices);
  line(
    'POST /inventory/rates, same push repeated, all unchanged',
    (await timePushes('rates', (k) => priceBody(property, k), false)).ours,
  );
  const availabilityPushes = await timePushes('availability', (k) => availabilityBody(property, k), true, {
    availability: raw.availability,
  });
  const availability = availabilityPushes.ours;
  line('POST /inventory/availability, all written', availability);
  line(
    'POST /inventory/availability, repeated, all unchanged',
    (await timePushes('availability', (k) => availabilityBody(property, k), false)).ours,
  );
  const restrictionPushes = await timePushes('restrictions', (k) => restrictionBody(property, k), true, {
    restrictions: raw.restrictions,
  });
  const restrictions = restrictionPushes.ours;
  line('POST /inventory/restrictions, all written', restrictions);
  line(
    'POST /inventory/restrictions, repeated, all unchanged',
    (await timePushes('restrictions', (k) => restrictionBody(property, k), false)).ours,
  );

  console.log(
    '\nRaw SQL bulk upsert of the same 20000 day-rows, each timed right after the push of its round (arrays prepared in advance, no validation, no diff)',
  );
  const rawRates = pricePushes.reference.rates;
  const rawRatesDistinct = pricePushes.reference.ratesDistinct;
  const rawAvailability = availabilityPushes.reference.availability;
  const rawRestrictions = restrictionPushes.reference.restrictions;
  line('raw INSERT .. ON CONFLICT into rates (jsonb merge)', rawRates);
  line('raw INSERT .. ON CONFLICT into availability', rawAvailability);
  line('raw INSERT .. ON CONFLICT into restrictions', rawRestrictions);
  line('raw, rates, each distinct price map sent once (the fastest raw)', rawRatesDistinct);
  const ratio = (ours: Stats, base: Stats) => (base.median / ours.median).toFixed(2);
  console.log(
    `  throughput ours / raw: prices ${ratio(prices, rawRates)} (fastest raw ${ratio(prices, rawRatesDistinct)}), availability ${ratio(availability, rawAvailability)}, restrictions ${ratio(restrictions, rawRestrictions)}`,
  );
  const figure = (name: string, ours: Stats, base: Stats, reference: string, target: number) => ({
    bench: 'inventory',
    name: `${name}, ${DAY_ROWS} day-rows (median ms)`,
    value: ours.median,
    unit: 'ms',
    reference,
    referenceValue: base.median,
    ratio: base.median / ours.median,
    target: `>= ${target}x`,
    met: base.median / ours.median >= target,
    range: `p95 ${ours.p95.toFixed(0)} ms, raw p95 ${base.p95.toFixed(0)} ms`,
  });
  report([
    figure('availability push', availability, rawAvailability, 'raw INSERT .. ON CONFLICT over unnest', 1.0),
    figure('restrictions push', restrictions, rawRestrictions, 'raw INSERT .. ON CONFLICT over unnest', 1.0),
    figure('per_person price push', prices, rawRatesDistinct, 'fastest raw: distinct price maps once', 1.0),
    {
      bench: 'inventory',
      name: `per_person price push, ${DAY_ROWS} day-rows: median under 300 ms`,
      value: prices.median,
      unit: 'ms',
      reference: 'raw, one JSON text per day-row',
      referenceValue: rawRates.median,
      ratio: rawRates.median / prices.median,
      target: '< 300 ms',
      met: prices.median < 300,
    },
  ]);

  await tenProperties(deps, app, demo.customer_id, token);
  await sustained(deps, app, demo.customer_id, token);
  await deps.db.close();
  process.exit();
}

/** The raw reference statements, one call per round (k: the round, which picks the values written). */
async function rawStatements(deps: Deps, p: BenchProperty) {
  const rawPlan = await addRatePlan(deps.db, p.id, {
    sellType: 'per_person',
    pairs: p.rooms.map((r) => ({
      roomTypeId: r.id,
      occupancies: CODES.map((code) => ({ code, kind: 'manual' as const })),
    })),
  });
  const first = todayIn(TIME_ZONE, new Date()) + 1;
  const days = p.rooms.flatMap((room) =>
    Array.from({ length: ROWS_PER_ROOM * DAYS_PER_ROW }, (_, d) => ({ room: room.id, date: formatDay(first + d) })),
  );
  const roomIds = days.map((d) => d.room);
  const dates = days.map((d) => d.date);
  const planIds = days.map(() => rawPlan.id);
  const rates = (k: number) => {
    const json = JSON.stringify(priceOf(k));
    const prices = days.map(() => json);
    return deps.db.tx(
      (tx) => tx.sql`
      insert into rates as r (property_id, rate_plan_id, room_type_id, date, prices)
      select ${p.id}::bigint, i.p, i.r, i.d, i.j::jsonb from unnest(${planIds}::bigint[], ${roomIds}::bigint[], ${dates}::date[], ${prices}::text[]) as i(p, r, d, j)
      on conflict (property_id, rate_plan_id, room_type_id, date) do update set prices = r.prices || excluded.prices, set_at = now()`,
    );
  };
  // The same rows with each distinct price map sent (and cast to jsonb) once, joined by index: what the
  // service's writer does, so the fastest honest raw statement to compare it with.
  // (The maps travel as text and are cast once each: postgres.js would send a JS string as a jsonb string.)
  const ratesDistinct = (k: number) => {
    const maps = [JSON.stringify(priceOf(k))];
    const index = days.map(() => 1);
    return deps.db.tx(
      (tx) => tx.sql`
      insert into rates as r (property_id, rate_plan_id, room_type_id, date, prices)
      select ${p.id}::bigint, i.p, i.r, i.d, m.j from unnest(${planIds}::bigint[], ${roomIds}::bigint[], ${dates}::date[], ${index}::int[]) as i(p, r, d, x)
      join (select n, json::jsonb as j from unnest(${maps}::text[]) with ordinality as v(json, n)) m on m.n = i.x
      on conflict (property_id, rate_plan_id, room_type_id, date) do update set prices = r.prices || excluded.prices, set_at = now()`,
    );
  };
  const availability = (k: number) => {
    const free = days.map(() => k % 7);
    return deps.db.tx(
      (tx) => tx.sql`
      insert into availability as a (property_id, room_type_id, date, offered)
      select ${p.id}::bigint, * from unnest(${roomIds}::bigint[], ${dates}::date[], ${free}::int[])
      on conflict (property_id, room_type_id, date) do update set offered = excluded.offered + a.booked, set_at = now()`,
    );
  };
  const restrictions = (k: number) => {
    const minLos = days.map(() => 1 + (k % 5));
    const stopSell = days.map(() => (k % 2 === 0 ? 1 : 0));
    return deps.db.tx(
      (tx) => tx.sql`
      insert into restrictions as r (property_id, rate_plan_id, room_type_id, date, min_los, stop_sell)
      select ${p.id}::bigint, i.p, i.r, i.d, i.m, i.s::boolean from unnest(${planIds}::bigint[], ${roomIds}::bigint[], ${dates}::date[], ${minLos}::int[], ${stopSell}::int[]) as i(p, r, d, m, s)
      on conflict (property_id, rate_plan_id, room_type_id, date) do update set min_los = excluded.min_los, stop_sell = excluded.stop_sell, set_at = now()`,
    );
  };
  return { rates, ratesDistinct, availability, restrictions };
}

/** Ten properties, one 20000-day-row price push each, all at once over a real socket: actors of different properties run in parallel. */
async function tenProperties(deps: Deps, app: ReturnType<typeof buildApp>, customerId: number, token: string) {
  const properties: BenchProperty[] = [];
  for (let i = 0; i < 10; i++) properties.push(await benchProperty(deps.db, customerId, `Bench Hotel ${i}`));
  app.listen({ port: 0, hostname: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server?.port}`;
  const send = async (p: BenchProperty, body: string) => {
    const res = await fetch(`${base}/v1/qc/properties/${p.externalId}/inventory/rates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    if (res.status !== 202) throw new Error(`answered ${res.status}`);
    await res.arrayBuffer();
  };
  const rounds = 5;
  const together: number[] = [];
  const oneByOne: number[] = [];
  for (let k = 1; k <= rounds + 1; k++) {
    const bodies = properties.map((p) => priceBody(p, k * 2));
    let t0 = performance.now();
    await Promise.all(properties.map((p, i) => send(p, bodies[i] as string)));
    if (k > 1) together.push(performance.now() - t0);
    const next = properties.map((p) => priceBody(p, k * 2 + 1));
    t0 = performance.now();
    for (const [i, p] of properties.entries()) await send(p, next[i] as string);
    if (k > 1) oneByOne.push(performance.now() - t0);
  }
  console.log('\nTen properties, one 20000-day-row price push each (HTTP over a real socket), all written');
  line('all ten at once (wall time)', stats(together), 10 * DAY_ROWS);
  line('the same ten one after another (wall time)', stats(oneByOne), 10 * DAY_ROWS);
  console.log(
    `  speed-up from running the ten actors in parallel: ${(stats(oneByOne).median / stats(together).median).toFixed(2)}x`,
  );
}

/** Sustained pushes of a typical size (100 rows, 2000 day-rows) across the ten properties, with autocannon. */
async function sustained(deps: Deps, app: ReturnType<typeof buildApp>, customerId: number, token: string) {
  const properties: BenchProperty[] = [];
  for (let i = 0; i < 10; i++) properties.push(await benchProperty(deps.db, customerId, `Sustained Hotel ${i}`));
  const first = todayIn(TIME_ZONE, new Date()) + 1;
  const last = addYears(first - 1, 2);
  const requests = properties.flatMap((p, i) =>
    [0, 1].map((k) => ({
      method: 'POST' as const,
      path: `/v1/qc/properties/${p.externalId}/inventory/rates`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        values: p.rooms.slice(0, 10).flatMap((room, r) =>
          Array.from({ length: 10 }, (_, j) => ({
            room_type_id: room.external_id,
            rate_plan_id: p.plan.external_id,
            date_from: formatDay(Math.min(last, first + ((i + r + j) % 30) * DAYS_PER_ROW)),
            date_to: formatDay(Math.min(last, first + ((i + r + j) % 30) * DAYS_PER_ROW + 19)),
            prices: priceOf(k),
          })),
        ),
      }),
    })),
  );
  const duration = Number(process.env.BENCH_SECONDS ?? 10);
  const result = await autocannon({
    url: `http://127.0.0.1:${app.server?.port}`,
    connections: 10,
    duration,
    requests,
  });
  const ok = result['2xx'];
  console.log(
    `\nSustained: autocannon, 10 connections, ${duration} s, 100-row (2000 day-row) price pushes cycling over 10 properties`,
  );
  console.log(
    `  ${(ok / duration).toFixed(1)} pushes/s (${ok} answered 202, ${result.non2xx} other), ${perSecond(ok * 2000, duration * 1000)} day-rows/s`,
  );
  console.log(
    `  latency median ${result.latency.p50} ms, p97.5 ${result.latency.p97_5} ms, p99 ${result.latency.p99} ms`,
  );
}

await main();
