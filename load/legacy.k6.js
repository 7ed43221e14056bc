// k6 load script: a PMS on the legacy v1 API in its loops: getBookings every few seconds and updateAvailability
// batches of ROWS rows x DAYS days (default 100 x 30, the size bench:legacy measures against the modern push).
//   k6 run -e BASE_URL=http://localhost:8080 -e API_KEY=<legacy api_key> [-e ROOM_IDS=<id,id>] \
//          [-e ROWS=100] [-e DAYS=30] [-e DURATION=2m] load/legacy.k6.js
// `npm start` prints the demo's legacy api_key. ROOM_IDS are the property's legacy room ids; without it, setup()
// takes every room property/getPropertySettings?names=rooms lists (data.rooms[].id).
// The legacy API has no per-minute budget of its own; the rates below are a busy PMS (a getBookings every 2 s,
// an availability batch every 5 s). Thresholds: `npm run bench` on a shared 2-core machine (below) with room for the
// network.

import { check } from 'k6';
import http from 'k6/http';

const BASE = __ENV.BASE_URL || 'http://localhost:8080';
const API_KEY = __ENV.API_KEY;
const ROOM_IDS = (__ENV.ROOM_IDS || '').split(',').filter(Boolean).map(Number);
const SETTINGS = `${BASE}/api/pms/v1/property/getPropertySettings?api_key=${API_KEY}&names=rooms`;
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
      // Not `method`: k6 sets that system tag to the HTTP verb on every request, over a scenario's tag of that name.
      tags: { legacy_method: 'getBookings' },
    },
    updateAvailability: {
      executor: 'constant-arrival-rate',
      rate: 12,
      timeUnit: '1m',
      duration: DURATION,
      preAllocatedVUs: 2,
      exec: 'updateAvailability',
      tags: { legacy_method: 'updateAvailability' },
    },
  },
  thresholds: {
    // bench:legacy (docs/performance.md): getBookings of 202 unacked bookings p99 15 ms; updateAvailability
    // 100 x 30 median 15 ms, p95 21 ms.
    'http_req_duration{legacy_method:getBookings}': ['p(95)<250', 'p(99)<500'],
    'http_req_duration{legacy_method:updateAvailability}': ['p(95)<250', 'p(99)<500'],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  if (!API_KEY) throw new Error('set -e API_KEY=<legacy api_key>');
  if (ROOM_IDS.length) return { roomIds: ROOM_IDS };
  const rooms = /** @type {{id: number}[]} */ (http.get(SETTINGS).json('data.rooms') || []);
  if (!rooms.length) throw new Error('getPropertySettings listed no rooms for this api_key: set -e ROOM_IDS=<id,id>');
  return { roomIds: rooms.map((room) => room.id) };
}

const day = (offset) => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);

export function getBookings() {
  const res = http.get(`${BASE}/api/pms/v1/booking/getBookings?api_key=${API_KEY}`);
  // A legacy failure is {message} (a 404 of an unhandled failure included): only a list under `data` is an answer.
  check(res, { 'bookings read': (r) => r.status === 200 && Array.isArray(r.json('data')) });
}

export function updateAvailability(data) {
  const roomIds = data.roomIds;
  // Each room's rows start 14 days apart and overlap, as a PMS resending its horizon does; values change per call.
  const perRoom = Math.ceil(ROWS / roomIds.length);
  const values = Array.from({ length: ROWS }, (_, r) => {
    const start = 1 + (Math.floor(r / roomIds.length) % perRoom) * 14;
    return {
      room_id: roomIds[r % roomIds.length],
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
  // Legacy answers have no `error` field: a failure is {message: "..."} and success exactly {message: "Success"}.
  check(res, { 'availability updated': (r) => r.status === 200 && r.json('message') === 'Success' });
}
