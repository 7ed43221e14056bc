import { describe, expect, it } from 'bun:test';
import { decodeProtectedHeader } from 'jose';
import { perFile, testAppPerFile } from '../testing/harness.ts';

/**
 * The API reference (/v1/qc/docs, from openapi.json) is where a partner writing an OAuth client reads what the token
 * endpoint answers. Its examples showed refusals without RFC 6749's `error` (every refusal carries it) and a token
 * signed ES256 with a made-up kid (tokens are RS256 with a kid of the key set): each is checked here against an answer.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());

const form = (over: Record<string, string | undefined>) => ({
  form: Object.fromEntries(
    Object.entries({
      grant_type: 'client_credentials',
      client_id: demo.client.client_id,
      client_secret: demo.client.client_secret,
      ...over,
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ),
});

async function tokenOperation() {
  const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
  return doc.paths['/v1/qc/oauth/token'].post;
}

const exampleFor = (operation: any, status: number, key: string) =>
  operation.responses[String(status)].content['application/json'].examples[key].value;

describe('token endpoint in the API reference', () => {
  it('shows each refusal with the RFC 6749 error the service answers for that key', async () => {
    const operation = await tokenOperation();
    const answers = [
      await t.request('POST', '/v1/qc/oauth/token', form({ client_secret: 'wrong' })),
      await t.request('POST', '/v1/qc/oauth/token', form({ scope: 'nonsense.scope' })),
      await t.request('POST', '/v1/qc/oauth/token', form({ grant_type: undefined })),
    ];
    for (const answer of answers) {
      expect(answer.body.error).toBeString();
      expect(exampleFor(operation, answer.status, answer.body.message).error).toBe(answer.body.error);
    }
  });

  it('shows a token whose header names the algorithm and a key id of the key set, as issued tokens do', async () => {
    const operation = await tokenOperation();
    const example = operation.responses['200'].content['application/json'].example.access_token;
    const issued = await t.request('POST', '/v1/qc/oauth/token', form({}));
    const real = decodeProtectedHeader(issued.body.access_token);
    const shown = decodeProtectedHeader(example);
    expect(shown.alg).toBe(real.alg as string);
    expect(shown.typ).toBe(real.typ as string);
    const jwks = (await t.request('GET', '/v1/qc/.well-known/jwks.json')).body;
    const kidShape = (kid: string) => kid.replace(/[0-9a-z]/g, 'x');
    expect(jwks.keys.map((key: { kid: string }) => kidShape(key.kid))).toContain(kidShape(shown.kid as string));
  });
});
