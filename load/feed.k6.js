// k6 load script: the booking revision feed as a partner's poller runs it. Each iteration polls from its cursor
// (GET /v1/qc/booking_revisions/feed?since=<cursor>&limit=100) and acks what it received, up to the cap below
// (POST /v1/qc/booking_revisions/{id}/ack), then resumes from next_cursor.
//   k6 run -e BASE_URL=http://localhost:8080 -e CLIENT_ID=... -e CLIENT_SECRET=... [-e DURATION=2m] load/feed.k6.js
// Budgets (spec 8.1, standard tier): polls spend `reads` (300 a minute), acks `booking-actions` (60 a minute).
// The script stays under both: one poll a second (60 of the 300 a minute), and at most 54 acks a minute, 10% under
// (the rest of a page stays unacked: the cursor moves past it, and it comes again once a page is empty and the
// poller starts over from 0, which is the feed's contract: an unacked revision keeps returning).
// Thresholds from `npm run bench` (bench:feed, 100k revisions and 1k unacked on a shared 2-core machine: p99 of
// a restart poll 5-20 ms in process, an ack a few ms) plus room for the network between you and the service.

import { check, sleep } from 'k6';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import { clientToken } from './client-token.js';

const BASE = __ENV.BASE_URL || 'http://localhost:8080';
const DURATION = __ENV.DURATION || '2m';
const ACKS_PER_MINUTE = 54;

const limited = new Counter('rate_limited');
const acked = new Counter('revisions_acked');
const pollMs = new Trend('feed_poll_ms', true);
const ackMs = new Trend('feed_ack_ms', true);

export const options = {
  scenarios: {
    poller: { executor: 'constant-arrival-rate', rate: 1, timeUnit: '1s', duration: DURATION, preAllocatedVUs: 1 },
  },
  thresholds: {
    feed_poll_ms: ['p(99)<100', 'p(95)<50'],
    feed_ack_ms: ['p(99)<100'],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  return { token: clientToken(BASE) };
}

let cursor = 0;
let minute = 0;
let acksThisMinute = 0;

function tooFast(res) {
  if (res.status !== 429) return false;
  limited.add(1);
  sleep(Number(res.headers['Retry-After'] || 1));
  return true;
}

export default function (data) {
  const auth = { headers: { Authorization: `Bearer ${data.token}` } };
  const poll = http.get(`${BASE}/v1/qc/booking_revisions/feed?since=${cursor}&limit=100`, auth);
  if (tooFast(poll)) return;
  pollMs.add(poll.timings.duration);
  if (!check(poll, { 'feed polled': (r) => r.status === 200 && r.json('status') === 'ok' })) return;
  const revisions = /** @type {{id: number}[]} */ (poll.json('data.booking_revisions') || []);
  const now = Math.floor(Date.now() / 60000);
  if (now !== minute) [minute, acksThisMinute] = [now, 0];
  for (const revision of revisions) {
    if (acksThisMinute >= ACKS_PER_MINUTE) break;
    const ack = http.post(`${BASE}/v1/qc/booking_revisions/${revision.id}/ack`, null, auth);
    if (tooFast(ack)) break;
    acksThisMinute++;
    ackMs.add(ack.timings.duration);
    if (check(ack, { 'revision acked': (r) => r.status === 200 })) acked.add(1);
  }
  // Resume after the page (next_cursor), past any revision of it left unacked by the ack cap; from 0 again once a
  // page is empty, which re-reads every unacked one (as a restarted consumer would).
  cursor = revisions.length ? Number(poll.json('data.next_cursor')) : 0;
}
