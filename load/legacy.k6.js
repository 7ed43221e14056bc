// k6 load script: a PMS on the legacy v1 API in its loops: getBookings every few seconds and updateAvailability
// batches of ROWS rows x DAYS days (default 100 x 30, the size bench:legacy measures against the modern push).
//   k6 run -e BASE_URL=http://localhost:8080 -e API_KEY=<legacy api_key> -e ROOM_IDS=<id,id> \
//          [-e ROWS=100] [-e DAYS=30] [-e DURATION=2m] load/legacy.k6.js
// ROOM_IDS are the property's legacy room ids (`npm start` prints the demo's api_key; getRooms lists the ids).
// The legacy API has no per-minute budget of its own; the rates below are a busy PMS (a getBookings every 2 s,
// an availability batch every 5 s). Thresholds from `npm run bench` on a shared 2-core machine (updateAvailability
// 100 x 30 in some 50-150 ms, getBookings of 200 unacked bookings a few tens of ms) with room for the network.

import { check } from 'k6';
import http from 'k6/http';

const BASE = __ENV.BASE_URL || 'http://localhost:8080';
const API_KEY = __ENV.API_KEY;
const ROOM_IDS = (__ENV.ROOM_IDS || '').split(',').filter(Boolean).map(Number);
const ROWS = Number(__ENV.ROWS || 100);
const DAYS = Number(__ENV.DAYS || 30);
const DURATION = __ENV.DURATION || '2m';

export const options = {
  scenarios: {
    getBookings: {
      executor: 'constant-arrival-rate',
      rate: 30,
      timeUnit: '1m',
      duration: DURATION,
      preAllocatedVUs: 2,
      exec: 'getBookings',
      tags: { method: 'getBookings' },
    },
    updateAvailability: {
      executor: 'constant-arrival-rate',
      rate: 12,
      timeUnit: '1m',
      duration: DURATION,
      preAllocatedVUs: 2,
      exec: 'updateAvailability',
      tags: { method: 'updateAvailability' },
    },
  },
  thresholds: {
    'http_req_duration{method:getBookings}': ['p(95)<250', 'p(99)<500'],
    // bench:legacy: getBookings of 202 unacked bookings p99 15 ms; updateAvailability 100 x 30 p95 21 ms.
    'http_req_duration{method:updateAvailability}': ['p(95)<250', 'p(99)<500'],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  if (!API_KEY || ROOM_IDS.length === 0) throw new Error('set -e API_KEY=<legacy api_key> -e ROOM_IDS=<id,id>');
}

const day = (offset) => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);

export function getBookings() {
  const res = http.get(`${BASE}/api/pms/v1/booking/getBookings?api_key=${API_KEY}`);
  check(res, { 'bookings read': (r) => r.status === 200 });
}

export function updateAvailability() {
  // Each room's rows start 14 days apart and overlap, as a PMS resending its horizon does; values change per call.
  const perRoom = Math.ceil(ROWS / ROOM_IDS.length);
  const values = Array.from({ length: ROWS }, (_, r) => {
    const start = 1 + (Math.floor(r / ROOM_IDS.length) % perRoom) * 14;
    return {
      room_id: ROOM_IDS[r % ROOM_IDS.length],
      date_from: day(start),
      date_to: day(start + DAYS - 1),
      qty: (__ITER + r) % 7,
    };
  });
  const res = http.post(
    `${BASE}/api/pms/v1/availability/updateAvailability?api_key=${API_KEY}`,
    JSON.stringify({ values }),
    {
      headers: { 'content-type': 'application/json' },
    },
  );
  check(res, { 'availability updated': (r) => r.status === 200 && !r.json('error') });
}
