/**
 * An access token for an OAuth client from a served process (client credentials through `POST /v1/qc/oauth/token`),
 * for tests and benchmarks that talk to a server over HTTP; in-process tests have `oauthToken` of ./harness.ts.
 * Throws when the endpoint answers anything but a token.
 */
export async function accessTokenAt(
  url: string,
  client: { client_id: string; client_secret: string },
): Promise<string> {
  const res = await fetch(`${url}/v1/qc/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
    }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`token endpoint answered ${res.status}`);
  return body.access_token;
}
