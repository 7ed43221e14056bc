/**
 * `npm run bench:legacy`: latency of the legacy PMS v1 methods a PMS calls in its loops (getBookings every 30 s to
 * 5 min, updateAvailability after each change, getAvailability, getBookingOffers), in process through
 * `app.handle` (no HTTP socket), on the demo customer plus BENCH_BOOKINGS bookings.
 *
 * Uses DATABASE_URL when set (else embedded PGlite in a temporary directory). Figures in milliseconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { createBooking } from '../server/bookings/intake.ts';
import { createDeps } from '../server/boot.ts';
import { addDays, localToday } from '../server/core/days.ts';
import { createDemo } from '../server/demo/demo.ts';
import { demoSteps } from '../server/demo/demo-steps.ts';
import { benchConfig } from './bench-config.ts';
import { report } from './report.ts';
import { stats } from './stats.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 200);
const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'qc-bench-legacy-'));

const config = benchConfig({
  QC_OPERATOR_TOKEN: 'bench-operator-token-0123456789',
  QC_DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL || undefined,
  REDIS_URL: undefined,
});
// Budgets counted, not enforced: the modern pushes below exceed 20 a minute.
const deps = await createDeps(config, { enforceRateLimits: false });
const app = buildApp(deps, { operatorToken: 'bench-operator-token-0123456789' });
const demo = await createDemo(deps, demoSteps);
const legacy = demo.legacy as { api_key: string; property_id: number; room_ids: number[]; bm_code: string };
const [room, other] = legacy.room_ids as [number, number];
const [plan] = await deps.db.sql<{ id: number }>`
  select id from rate_plans where property_id = ${legacy.property_id} and parent_id is null and sell_type = 'per_room' limit 1`;
const today = localToday('Europe/Lisbon', new Date());

const bookingIds: number[] = [];
for (let i = 0; i < BOOKINGS; i++) {
  const { booking } = await createBooking(deps, {
    propertyId: legacy.property_id,
    channel: 'BDC',
    guest: { firstName: 'Bench', lastName: `Guest ${i}`, email: `g${i}@example.com` },
    checkinDate: addDays(today, 1 + (i % 60)),
    checkoutDate: addDays(today, 3 + (i % 60)),
    rooms: [{ roomTypeId: room, ratePlanId: plan?.id as number, adults: 2 }],
    totalPrice: 200,
  });
  bookingIds.push(booking.id);
}

const call = (method: string, path: string, query: Record<string, string> = {}, body?: unknown) => {
  const url = new URL(`http://localhost/api/pms/v1/${path}`);
  url.searchParams.set('api_key', legacy.api_key);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return app.handle(
    new Request(url.toString(), { method, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
};

async function measure(label: string, fn: (i: number) => Promise<Response>) {
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    const res = await fn(i);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${label}: status ${res.status}`);
    samples.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  const s = stats(samples);
  const fmt = (x: number) => x.toFixed(2).padStart(7);
  console.log(
    `  ${label.padEnd(52)} median ${fmt(s.median)}  p95 ${fmt(s.p95)}  p99 ${fmt(s.p99)}  ${(CALLS / seconds).toFixed(0).padStart(5)} req/s`,
  );
}

console.log(
  `legacy facade, ${deps.db.kind}, ${CALLS} sequential calls each, ${BOOKINGS + 2} bookings on the property (ms)`,
);
const first = performance.now();
await (await call('GET', 'booking/getBookings')).arrayBuffer();
console.log(
  `  getBookings, first call (stores ${BOOKINGS + 2} revisions)          ${(performance.now() - first).toFixed(1)} ms`,
);
await measure(`getBookings, ${BOOKINGS + 2} unacked bookings`, () => call('GET', 'booking/getBookings'));
await measure('getBookings?booking_id', (i) =>
  call('GET', 'booking/getBookings', { booking_id: String(bookingIds[i % bookingIds.length]) }),
);
await measure('updateAvailability, 10 rows x 30 days', (i) =>
  call(
    'POST',
    'availability/updateAvailability',
    {},
    {
      values: Array.from({ length: 10 }, (_, r) => ({
        room_id: r % 2 ? other : room,
        date_from: addDays(today, r * 30),
        date_to: addDays(today, r * 30 + 29),
        qty: (i + r) % 7,
      })),
    },
  ),
);
await measure('getAvailability, 2 rooms x 90 days', () =>
  call('GET', 'availability/getAvailability', { date_from: today, date_to: addDays(today, 89) }),
);
await measure('getBookingOffers, 2 nights, 2 adults', () =>
  call('GET', 'property/getBookingOffers', {
    bm_code: legacy.bm_code,
    checkin_date: addDays(today, 70),
    checkout_date: addDays(today, 72),
    'guests[adults]': '2',
  }),
);

// Legacy updateAvailability of 100 rows x 30 days against the modern availability push of the same day-rows,
// interleaved so both see the same load. Rows overlap (each room's rows start 14 days apart), as a PMS's do.
const [ids] = await deps.db.sql<{ property: string; rooms: Record<string, string> }>`
  select (select external_id from properties where id = ${legacy.property_id}) as property,
    (select jsonb_object_agg(id, external_id) from room_types where id = any(${[room, other]}::bigint[])) as rooms`;
const batch = (k: number) =>
  Array.from({ length: 100 }, (_, r) => ({
    room_id: r % 2 ? other : room,
    date_from: addDays(today, (r >> 1) * 14),
    date_to: addDays(today, (r >> 1) * 14 + 29),
    qty: (k + r) % 7,
  }));
const legacyBatch = (k: number) => call('POST', 'availability/updateAvailability', {}, { values: batch(k) });
const modernBatch = (k: number) =>
  app.handle(
    new Request(`http://localhost/v1/qc/properties/${ids?.property}/inventory/availability`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.personal_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        values: batch(k).map((v) => ({
          room_type_id: ids?.rooms[String(v.room_id)],
          date_from: v.date_from,
          date_to: v.date_to,
          availability: v.qty,
        })),
      }),
    }),
  );
const BATCH_ROUNDS = Number(process.env.BENCH_BATCH_ROUNDS ?? 15);
const legacySamples: number[] = [];
const modernSamples: number[] = [];
for (let k = 0; k < BATCH_ROUNDS + 2; k++) {
  for (const [fn, samples, status] of [
    [legacyBatch, legacySamples, 200],
    [modernBatch, modernSamples, 202],
  ] as const) {
    const t0 = performance.now();
    const res = await fn(k);
    const text = await res.text();
    if (res.status !== status) throw new Error(`100x30 batch answered ${res.status}: ${text.slice(0, 200)}`);
    if (k >= 2) samples.push(performance.now() - t0);
  }
}
const [legacyStats, modernStats] = [stats(legacySamples), stats(modernSamples)];
console.log(
  `  updateAvailability, 100 rows x 30 days: median ${legacyStats.median.toFixed(1)} ms; modern push of the same day-rows ${modernStats.median.toFixed(1)} ms`,
);
report([
  {
    bench: 'legacy',
    name: 'updateAvailability, 100 rows x 30 days (median ms)',
    value: legacyStats.median,
    unit: 'ms',
    reference: 'modern availability push, same day-rows',
    referenceValue: modernStats.median,
    ratio: modernStats.median / legacyStats.median,
    target: '>= 0.5x',
    met: modernStats.median / legacyStats.median >= 0.5,
    range: `p95 ${legacyStats.p95.toFixed(0)} ms vs ${modernStats.p95.toFixed(0)} ms`,
  },
]);

await deps.db.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
