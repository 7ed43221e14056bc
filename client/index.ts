import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

/**
 * The typed client of the partner API: openapi-fetch over the types generated from the service's own
 * OpenAPI document (client/schema.d.ts, `npm run client:types`), so paths, parameters, bodies and answers
 * (errors included) are checked by the compiler. See client/example.ts for a first hour with it.
 */
export type { components, operations, paths } from './schema.d.ts';
export type QcClient = Client<paths>;

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** Space-separated subset of the client's scopes; all of them when left out. */
  scope?: string;
}

const TOKEN_PATH = '/v1/qc/oauth/token';
/** Refresh this long before expiry (spec 5.1: refresh proactively; a 401 means get a new token). */
const REFRESH_MARGIN_MS = 60_000;

/**
 * A client for `baseUrl` (the service's origin, for example http://localhost:8080) authenticated with a
 * personal token (`qc_...`) or OAuth client credentials, whose access token it fetches and renews itself.
 */
export function createQcClient(baseUrl: string, auth: { token: string } | ClientCredentials): QcClient {
  const client = createClient<paths>({ baseUrl });
  client.use('token' in auth ? bearer(async () => auth.token) : clientCredentials(baseUrl, auth));
  return client;
}

function bearer(token: () => Promise<string>): Middleware {
  return {
    async onRequest({ request }) {
      if (new URL(request.url).pathname !== TOKEN_PATH) request.headers.set('authorization', `Bearer ${await token()}`);
      return request;
    },
  };
}

function clientCredentials(baseUrl: string, credentials: ClientCredentials): Middleware {
  const tokens = createClient<paths>({ baseUrl });
  let current: Promise<{ token: string; expiresAt: number }> | undefined;
  const fetchToken = async () => {
    const { data, error, response } = await tokens.POST(TOKEN_PATH, {
      body: {
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
        scope: credentials.scope,
      },
    });
    if (!data) throw new Error(`token request answered ${response.status}: ${error?.message} (${error?.detail})`);
    return { token: data.access_token, expiresAt: Date.now() + data.expires_in * 1000 };
  };
  const token = async () => {
    const held = current && (await current.catch(() => undefined));
    if (!held || held.expiresAt - Date.now() < REFRESH_MARGIN_MS) current = fetchToken();
    return (await current!).token;
  };
  return {
    ...bearer(token),
    onResponse({ response }) {
      // The token was refused (revoked client, rotated keys): the next request fetches a new one.
      if (response.status === 401) current = undefined;
      return response;
    },
  };
}
