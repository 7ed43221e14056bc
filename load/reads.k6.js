// k6 load script: authenticated reads (GET /v1/qc/properties), for partners and for our own capacity checks.
//   k6 run -e BASE_URL=http://localhost:8080 -e CLIENT_ID=... -e CLIENT_SECRET=... load/reads.k6.js
// A partner stays inside 300 reads per minute per client (600 on the premium tier): the default rate is 4.5 a
// second (270 a minute, 10% under the standard budget; -e RATE=9 for premium). 429 answers carry Retry-After and
// are not outages, so the script counts them separately.
// Capacity (ours, against a deployment whose budgets are not enforced, or with many clients): -e RATE=1000 runs
// 1000 req/s on 20 VUs, the figure `npm run bench` measures (bench/reads.ts); there the service's p99 target is
// 10 ms beside a bare handler running the same SQL.
// Thresholds from `npm run bench` on a shared 2-core machine (p99 some tens of ms at 1000 req/s under other load)
// plus room for the network between you and the service; tighten them on a quiet, dedicated host.

import { check, sleep } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { clientToken } from './client-token.js';

const BASE = __ENV.BASE_URL || 'http://localhost:8080';
const RATE = Number(__ENV.RATE || 4.5);
const limited = new Counter('rate_limited');

export const options = {
  scenarios: {
    reads: {
      executor: 'constant-arrival-rate',
      // k6 takes whole numbers: a fractional rate per second is given per minute.
      rate: Math.round(RATE * 60),
      timeUnit: '1m',
      duration: __ENV.DURATION || '1m',
      preAllocatedVUs: Math.min(20, Math.max(2, Math.ceil(RATE / 50))),
      maxVUs: 40,
    },
  },
  thresholds: {
    http_req_duration: ['p(95)<50', 'p(99)<100'],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  return { token: clientToken(BASE) };
}

export default function (data) {
  const res = http.get(`${BASE}/v1/qc/properties`, { headers: { Authorization: `Bearer ${data.token}` } });
  if (res.status === 429) {
    limited.add(1);
    sleep(Number(res.headers['Retry-After'] || 1));
    return;
  }
  check(res, { 'properties listed': (r) => r.status === 200 && r.json('status') === 'ok' });
}
