/**
 * `npm run bench:fairness`: one customer's storm of full syncs must not slow another customer's push (issue 25).
 *
 *   DATABASE_URL=postgres://... npm run bench:fairness     (default: the local qc_fairness database)
 *
 * Customer A has BENCH_PROPERTIES live properties (default 200) and pushes a year of availability (12 monthly rows)
 * to every one of them at once; customer B pushes the same to its one property, one push after another. Measured
 * on one service: B's push latency alone, then while A's storm runs (from the moment every storm request has asked
 * for its property's turn), with the per-customer bound on actor turns (BENCH_TURNS, default 3, as
 * QC_ACTOR_TURNS_PER_CUSTOMER) and, as the reference of the old behaviour, without it (1000). Each turn holds a
 * pooled connection (10 per process): unbounded, A's turns take the pool and B waits behind the whole storm.
 * Target: B's median push during the storm within 2.5x its median alone. Not 1x: on two cores the statements A's
 * three running turns had sent before B's turn began share the CPU with B (A yields its next ones while B's turn
 * runs: QC_ACTOR_YIELD_MS); unbounded, B waits 50x and more. Also shown: B's slowest push,
 * bounded vs unbounded, and how long A's storm takes each way (what the bound costs the storming customer).
 * Exits 1 on a miss.
 */
import { buildApp } from '../server/app.ts';
import { createDeps } from '../server/boot.ts';
import { formatDay, todayIn } from '../server/core/days.ts';
import type { Deps } from '../server/core/deps.ts';
import { createDemo } from '../server/demo/demo.ts';
import { demoSteps } from '../server/demo/demo-steps.ts';
import { addRoomType, type Ref } from '../server/inventory/test-fixtures.ts';
import { insertProperty } from '../server/properties/insert-property.ts';
import { benchConfig } from './bench-config.ts';
import { report } from './report.ts';
import { type Stats, stats } from './stats.ts';

const OPERATOR = 'bench-operator-token-0123456789';
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/qc_fairness';
const PROPERTIES = Number(process.env.BENCH_PROPERTIES ?? 200);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const TARGET_SLOWDOWN = 2.5;

interface Tenant {
  token: string;
  properties: { externalId: string; room: Ref }[];
}

async function tenant(deps: Deps, properties: number): Promise<Tenant> {
  const demo = await createDemo(deps, demoSteps);
  const rows: Tenant['properties'] = [];
  for (let i = 0; i < properties; i++) {
    const p = await insertProperty(deps.db, {
      customerId: demo.customer_id,
      name: `Storm ${i}`,
      currency: 'EUR',
      timezone: 'UTC',
      mode: 'live',
    });
    rows.push({ externalId: p.external_id, room: await addRoomType(deps.db, p.id) });
  }
  return { token: demo.personal_token, properties: rows };
}

/** A year of availability from tomorrow, one row per month, the level changing with `k` so every push writes. */
/** `year` 0 or 1: the first or second year ahead, so each storm writes days nobody wrote before (an onboarding). */
function yearBody(room: Ref, k: number, year = 0): string {
  const first = todayIn('UTC', new Date()) + 1 + year * 360;
  return JSON.stringify({
    values: Array.from({ length: 12 }, (_, m) => ({
      room_type_id: room.external_id,
      date_from: formatDay(first + m * 30),
      date_to: formatDay(first + m * 30 + 29),
      availability: 1 + ((k + m) % 9),
    })),
  });
}

function pusher(app: ReturnType<typeof buildApp>) {
  return async (who: Tenant, index: number, body: string) => {
    const property = who.properties[index] as Tenant['properties'][number];
    const res = await app.handle(
      new Request(`http://localhost/v1/qc/properties/${property.externalId}/inventory/availability`, {
        method: 'POST',
        headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
        body,
      }),
    );
    const text = await res.text();
    if (res.status !== 202) throw new Error(`push answered ${res.status}: ${text.slice(0, 300)}`);
  };
}

/** B's push latency, one after another, while `during` runs (or `SAMPLES` of them when nothing runs). */
async function latencies(push: ReturnType<typeof pusher>, b: Tenant, during?: Promise<unknown>): Promise<number[]> {
  let done = false;
  void during?.finally(() => {
    done = true;
  });
  const samples: number[] = [];
  for (let k = 0; samples.length < SAMPLES && !(during && done); k++) {
    const body = yearBody(b.properties[0]?.room as Ref, k);
    const t0 = performance.now();
    await push(b, 0, body);
    samples.push(performance.now() - t0);
  }
  await during;
  return samples;
}

async function scenario(
  turnsPerCustomer: number,
  a: Tenant,
  b: Tenant,
  round: number,
): Promise<{ alone: Stats; b: Stats; stormMs: number }> {
  const config = benchConfig({
    DATABASE_URL: databaseUrl,
    QC_OPERATOR_TOKEN: OPERATOR,
    QC_ACTOR_TURNS_PER_CUSTOMER: String(turnsPerCustomer),
  });
  const deps = await createDeps(config, { enforceRateLimits: false });
  // Counts the turns asked of the actors, so B starts once every storm request has reached its property's actor.
  let entered = 0;
  const run = deps.actors.run.bind(deps.actors);
  deps.actors.run = (propertyId, work) => {
    entered++;
    return run(propertyId, work);
  };
  const push = pusher(buildApp(deps, { operatorToken: OPERATOR }));
  // B alone on this very service (its pool, caches and prepared statements warmed), just before the storm.
  for (let i = 0; i < 5; i++) await push(b, 0, yearBody(b.properties[0]?.room as Ref, i));
  const alone = stats(await latencies(push, b));
  // Bodies are built before the storm starts: the storm is the database work, not JSON building.
  const bodies = a.properties.map((p) => yearBody(p.room, round, round - 1));
  const t0 = performance.now();
  const storm = Promise.all(a.properties.map((_, i) => push(a, i, bodies[i] as string)));
  let stormMs = 0;
  void storm.then(() => {
    stormMs = performance.now() - t0;
  });
  // B starts once every storm request has passed the pipeline and asked for its property's turn: from then on
  // the storm is the database work the bound is about (the burst of 200 requests being parsed and authenticated
  // is CPU, not connections, and the inventory-writes rate limit stops it in production).
  let stormDone = false;
  void storm.finally(() => {
    stormDone = true;
  });
  const before = entered;
  while (!stormDone && entered - before < a.properties.length) await Bun.sleep(1);
  const samples = await latencies(push, b, storm);
  return { alone, b: stats(samples), stormMs };
}

async function main() {
  const config = benchConfig({ DATABASE_URL: databaseUrl, QC_OPERATOR_TOKEN: OPERATOR });
  const deps = await createDeps(config, { enforceRateLimits: false });
  const push = pusher(buildApp(deps, { operatorToken: OPERATOR }));
  const a = await tenant(deps, PROPERTIES);
  const b = await tenant(deps, 1);
  // Warm the storming customer's path (principal cache) on a few properties, on days no storm writes.
  const lastDay = formatDay(todayIn('UTC', new Date()) + 729);
  const warmUp = (room: Ref) =>
    JSON.stringify({
      values: [{ room_type_id: room.external_id, date_from: lastDay, date_to: lastDay, availability: 1 }],
    });
  await Promise.all(a.properties.slice(0, 5).map((p, i) => push(a, i, warmUp(p.room))));

  const bounded = await scenario(Number(process.env.BENCH_TURNS ?? 3), a, b, 1);
  const alone = bounded.alone;
  const unbounded = await scenario(1000, a, b, 2);
  const line = (label: string, s: Stats, stormMs?: number) =>
    console.log(
      `  ${label.padEnd(50)} median ${s.median.toFixed(1).padStart(7)} ms  p95 ${s.p95.toFixed(1).padStart(7)} ms  max ${s.max.toFixed(1).padStart(7)} ms  (n=${s.n})${stormMs ? `  storm ${(stormMs / 1000).toFixed(1)} s` : ''}`,
    );
  console.log(
    `customer B's single push (a year of one room) while customer A pushes ${PROPERTIES} full syncs at once:`,
  );
  line('B alone', alone);
  line('B during the storm, 3 turns per customer (now)', bounded.b, bounded.stormMs);
  line('B during the storm, unbounded (before)', unbounded.b, unbounded.stormMs);
  report([
    {
      bench: 'fairness',
      name: `B's push median during A's storm of ${PROPERTIES} full syncs`,
      value: bounded.b.median,
      unit: 'ms',
      reference: 'B alone',
      referenceValue: alone.median,
      ratio: alone.median / bounded.b.median,
      target: `>= ${(1 / TARGET_SLOWDOWN).toFixed(1)}x`,
      met: bounded.b.median <= TARGET_SLOWDOWN * alone.median,
      range: `p95 ${bounded.b.p95.toFixed(1)} / alone ${alone.p95.toFixed(1)} ms, n=${bounded.b.n}, storm ${(bounded.stormMs / 1000).toFixed(1)} s`,
    },
    {
      bench: 'fairness',
      name: `B's slowest push during A's storm: bounded (3 turns a customer)`,
      value: bounded.b.max,
      unit: 'ms',
      reference: 'unbounded, before',
      referenceValue: unbounded.b.max,
      ratio: unbounded.b.max / bounded.b.max,
      range: `unbounded: median ${unbounded.b.median.toFixed(1)} ms, n=${unbounded.b.n}, storm ${(unbounded.stormMs / 1000).toFixed(1)} s`,
    },
  ]);
  process.exit();
}

await main();
