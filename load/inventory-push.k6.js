// k6 load script for partners: the three inventory pushes at their documented budget (20 a minute per endpoint
// per client), with batches of a realistic size built from the property's own room types and rate plans.
//   k6 run -e BASE_URL=http://localhost:8080 -e CLIENT_ID=... -e CLIENT_SECRET=... -e PROPERTY=<id or partner code> \
//          [-e ROWS=100] [-e DAYS=20] [-e DURATION=2m] load/inventory-push.k6.js
// ROWS rows per push, each covering DAYS consecutive days from tomorrow (ROWS x DAYS day-rows; the service takes up
// to 1000 rows and 20000 day-rows). Values alternate between two sets, so pushes keep writing instead of finding
// everything unchanged. A shadow property answers `dry: true` and writes nothing: point this at a live property
// to measure writes. 429 answers carry Retry-After and are not outages; they are counted on their own.

import { check, sleep } from 'k6';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import { clientToken } from './client-token.js';

const BASE = __ENV.BASE_URL || 'http://localhost:8080';
const PROPERTY = __ENV.PROPERTY;
const ROWS = Number(__ENV.ROWS || 100);
const DAYS = Number(__ENV.DAYS || 20);
const DURATION = __ENV.DURATION || '2m';

const limited = new Counter('rate_limited');
const dayRowsWritten = new Counter('day_rows_written');
const dayRowsUnchanged = new Counter('day_rows_unchanged');
const pushMs = new Trend('push_duration_ms', true);

const scenario = (endpoint) => ({
  executor: 'constant-arrival-rate',
  // 18 a minute: 10% under the 20-a-minute budget, so a partner's own retries fit beside it.
  rate: 18,
  timeUnit: '1m',
  duration: DURATION,
  preAllocatedVUs: 2,
  exec: endpoint,
  tags: { endpoint },
});

export const options = {
  scenarios: {
    availability: scenario('availability'),
    rates: scenario('rates'),
    restrictions: scenario('restrictions'),
  },
  thresholds: {
    // From `npm run bench` (bench:inventory) on a 2-core machine: a 20000-day-row push takes 87-170 ms median,
    // p95 111-293 ms (prices the most); the default 2000-day-row push a tenth of that, and 100-row pushes under
    // sustained load had a p99 of 258-424 ms. These leave room for the network and for the largest pushes
    // (ROWS=1000 DAYS=20).
    'http_req_duration{endpoint:rates}': ['p(95)<500', 'p(99)<1000'],
    'http_req_duration{endpoint:availability}': ['p(95)<500', 'p(99)<1000'],
    'http_req_duration{endpoint:restrictions}': ['p(95)<500', 'p(99)<1000'],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  if (!PROPERTY) throw new Error('set -e PROPERTY=<external property id or partner code>');
  const token = clientToken(BASE);
  const auth = { headers: { Authorization: `Bearer ${token}` } };
  const rooms = /** @type {{id: string}[]} */ (
    http.get(`${BASE}/v1/qc/properties/${PROPERTY}/room_types?per_page=200`, auth).json('data.room_types') || []
  );
  const entries = /** @type {any[]} */ (
    http.get(`${BASE}/v1/qc/properties/${PROPERTY}/rate_plans?per_page=200`, auth).json('data.rate_plans') || []
  );
  // Pairs that take prices: not a child plan; per_room by `rate`, the others by their manual codes.
  const pairs = entries
    .filter((e) => e.parent_rate_plan_id === null)
    .map((e) => ({
      room_type_id: e.room_type_id,
      rate_plan_id: e.id,
      codes:
        e.sell_type === 'per_room' ? null : (e.occupancies || []).filter((o) => o.kind === 'manual').map((o) => o.code),
    }))
    .filter((p) => p.codes === null || p.codes.length > 0);
  if (!rooms.length || !pairs.length)
    throw new Error('the property needs room types and a rate plan that takes prices');
  return { token, rooms: rooms.map((r) => r.id), pairs };
}

function day(offset) {
  const d = new Date(Date.now() + offset * 86400000);
  return d.toISOString().slice(0, 10);
}

/** Row i covers DAYS days; rows walk the targets first, then move further into the calendar. */
function rows(targets, build) {
  return Array.from({ length: ROWS }, (_, i) => {
    const target = targets[i % targets.length];
    const start = 1 + Math.floor(i / targets.length) * DAYS;
    return { ...build(target), date_from: day(start), date_to: day(start + DAYS - 1) };
  });
}

function push(data, endpoint, values) {
  const res = http.post(`${BASE}/v1/qc/properties/${PROPERTY}/inventory/${endpoint}`, JSON.stringify({ values }), {
    headers: { Authorization: `Bearer ${data.token}`, 'Content-Type': 'application/json' },
    tags: { endpoint },
  });
  if (res.status === 429) {
    limited.add(1);
    sleep(Number(res.headers['Retry-After'] || 1));
    return;
  }
  const ok = check(res, {
    'accepted (202)': (r) => r.status === 202 && r.json('message') === 'accepted',
    // An error envelope has no `data` (and a body from a proxy may be no JSON at all): a failed check, never a
    // TypeError that ends the iteration and keeps the answer out of `checks`.
    'every day-row accounted for': (r) => {
      if (r.status !== 202) return false;
      const d =
        /** @type {{dry: boolean, written: number, unchanged: number, skipped_out_of_window: number} | null} */ (
          r.json('data')
        );
      if (!d) return false;
      return d.dry || d.written + d.unchanged + d.skipped_out_of_window === ROWS * DAYS;
    },
  });
  if (ok) {
    pushMs.add(res.timings.duration, { endpoint });
    dayRowsWritten.add(Number(res.json('data.written')), { endpoint });
    dayRowsUnchanged.add(Number(res.json('data.unchanged')), { endpoint });
  }
}

const flip = () => __ITER % 2;

export function availability(data) {
  push(
    data,
    'availability',
    rows(data.rooms, (room) => ({ room_type_id: room, availability: 3 + flip() })),
  );
}

export function rates(data) {
  push(
    data,
    'rates',
    rows(data.pairs, (p) => {
      const ids = { room_type_id: p.room_type_id, rate_plan_id: p.rate_plan_id };
      if (p.codes === null) return { ...ids, rate: 100 + flip() };
      return { ...ids, prices: Object.fromEntries(p.codes.map((code, i) => [code, 80 + 10 * i + flip()])) };
    }),
  );
}

export function restrictions(data) {
  push(
    data,
    'restrictions',
    rows(data.pairs, (p) => ({
      room_type_id: p.room_type_id,
      rate_plan_id: p.rate_plan_id,
      min_los: 1 + flip(),
      stop_sell: false,
    })),
  );
}
