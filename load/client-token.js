import { check } from 'k6';
import http from 'k6/http';

/** An access token for the OAuth client given as CLIENT_ID / CLIENT_SECRET: what each script's setup() needs. */
export function clientToken(base) {
  const res = http.post(`${base}/v1/qc/oauth/token`, {
    grant_type: 'client_credentials',
    client_id: __ENV.CLIENT_ID,
    client_secret: __ENV.CLIENT_SECRET,
  });
  check(res, { 'token issued': (r) => r.status === 200 });
  return String(res.json('access_token'));
}
