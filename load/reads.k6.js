// k6 load script for partners: authenticated reads at the documented `reads` budget.
//   k6 run -e BASE_URL=http://localhost:8080 -e CLIENT_ID=... -e CLIENT_SECRET=... load/reads.k6.js
// A partner stays inside 300 reads per minute per client (600 on the premium tier); 429 answers carry
// Retry-After and are not outages, so the script counts them separately.

import { check, sleep } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';

const BASE = __ENV.BASE_URL || 'http://localhost:8080';
const limited = new Counter('rate_limited');

export const options = {
  scenarios: {
    reads: { executor: 'constant-arrival-rate', rate: 5, timeUnit: '1s', duration: '1m', preAllocatedVUs: 5 },
  },
  thresholds: { http_req_duration: ['p(95)<200'], checks: ['rate>0.99'] },
};

export function setup() {
  const res = http.post(`${BASE}/v1/qc/oauth/token`, {
    grant_type: 'client_credentials',
    client_id: __ENV.CLIENT_ID,
    client_secret: __ENV.CLIENT_SECRET,
  });
  check(res, { 'token issued': (r) => r.status === 200 });
  return { token: res.json('access_token') };
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
