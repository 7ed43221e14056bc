import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { routeCatalogue as routeList } from '../../route-table.ts';
import { perFile, testAppPerFile } from '../../testing/harness.ts';

/**
 * Bad input gets a clear error in the envelope, never a 500: every route of the table, with a token that
 * holds every scope, is fed malformed bodies, odd path segments and junk query strings; the routes without
 * a bearer (token endpoint, JWKS) are fed junk Authorization headers as well. Issue 16's causes of 500s are
 * generators here: NUL bytes and lone surrogates in strings (bodies, keys, queries, forms), non-integer and
 * huge paging, nesting bombs and bodies over the limits.
 */

const t = testAppPerFile();
const demo = perFile(() => t.demo());

const segments = fc.constantFrom(
  'x',
  '0',
  '-1',
  '99999999999999999999',
  '00000000-0000-4000-8000-000000000000',
  '%00',
  'a%20b',
  "'--",
);
/** Strings PostgreSQL cannot store as given: NUL bytes and lone UTF-16 surrogates (issue 16). */
const hostileStrings = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800', '%00'),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
/** A body with one hostile string under a field name routes commonly read, or as a key. */
const hostileBodies = fc
  .tuple(
    fc.constantFrom('name', 'partner_name', 'partner_code', 'client_id', 'reference', 'property_id', 'url', 'values'),
    hostileStrings,
  )
  .chain(([field, text]) =>
    fc.constantFrom(
      JSON.stringify({ [field]: text }),
      JSON.stringify({ [text]: 'x' }),
      JSON.stringify({ values: [{ [field]: text, date_from: '2030-01-01', date_to: '2030-01-02' }] }),
    ),
  );
/** Nesting bombs, arrays and objects, from just past the depth limit to thousands of levels. */
const nestedBodies = fc
  .tuple(fc.integer({ min: 30, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );
/** Bodies over the smaller limits (64 KiB bookings, 1 MiB configuration) and over the inventory limit. */
const hugeBodies = fc
  .constantFrom(70_000, 1_100_000, 4_300_000)
  .map((size) => JSON.stringify({ values: [], padding: 'x'.repeat(size) }));
const rawBodies = fc.oneof(
  fc.constantFrom(
    '{',
    '[]',
    'null',
    '""',
    '{"values": "x"}',
    '{"values": [{}]}',
    '{"values": [null, 1, "a"]}',
    '\u0000',
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  hostileBodies,
  nestedBodies,
  { arbitrary: hugeBodies, weight: 1 },
);
/** Paging that is not a small integer (1.5 and twenty digits reached SQL as 500s), and hostile strings. */
const queryValues = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('1.5', '0.5', '1e3', '1e400', '99999999999999999999', '-0', ' 1', 'NaN', 'Infinity'),
  hostileStrings,
);
const queries = fc.dictionary(
  fc.constantFrom('page', 'limit', 'since', 'from', 'to', 'status', 'per_page', 'consolidated', 'name'),
  queryValues,
  { maxKeys: 3 },
);

describe('no input produces a 500', () => {
  for (const spec of routeList.filter((r) => r.auth !== 'none')) {
    it(`${spec.method} ${spec.path} answers malformed input with a 4xx in the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.boolean(),
          segments,
          segments,
          rawBodies,
          queries,
          async (realProperty, first, second, raw, query) => {
            let used = 0;
            const path = `/v1/qc${spec.path.replace(/:(\w+)/g, (_m, name) => {
              // Half the runs reach past the property lookup into the route's own validation.
              if (name === 'property' && used++ === 0 && realProperty)
                return demo.properties[0]?.external_property_id ?? first;
              return encodeURIComponent(used % 2 ? first : second);
            })}`;
            const res = await t.request(spec.method, path, {
              token: demo.personal_token,
              raw: spec.method === 'GET' || spec.method === 'DELETE' ? undefined : raw,
              query,
            });
            expect(res.status).toBeLessThan(500);
            if (res.status >= 400) expect(String(res.body?.message)).toStartWith('errors.');
          },
        ),
        { numRuns: 8 },
      );
    });
  }
});

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
/** What a client could put in Authorization: Basic with junk, bad percent-escapes and NUL, and other schemes. */
const authorizations = fc.oneof(
  fc.constantFrom(
    'Basic',
    'Basic ',
    'Basic !!!',
    'Basic ====',
    `Basic ${base64('%')}`,
    `Basic ${base64('%zz:%zz')}`,
    `Basic ${base64('id:%E0%A4%A')}`,
    `Basic ${base64('%C0%AF:x')}`,
    `Basic ${base64('\u0000:\u0000')}`,
    `Basic ${base64('qcc_%00:secret')}`,
    `Basic ${base64(':')}`,
    'Bearer',
    'Bearer x.y.z',
    'Digest x',
  ),
  fc
    .tuple(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('', '%', '%0', '%zz', '%00', '%FF', '\u0000'),
      fc.string({ maxLength: 12 }),
    )
    .map(([a, junk, b]) => `Basic ${base64(`${a}${junk}:${junk}${b}`)}`),
  fc.string({ maxLength: 24 }).map((junk) => `Basic ${junk}`),
);
const contentTypes = fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain');
const formBodies = fc.oneof(
  rawBodies,
  fc.constantFrom(
    'grant_type=client_credentials',
    'grant_type=client_credentials&client_id=%00&client_secret=%zz',
    'grant_type=client_credentials&client_id=qcc_a%00b&client_secret=x',
    'grant_type=client_credentials&client_id=%ED%A0%80&client_secret=%ED%A0%80',
    'grant_type=client_credentials&client_id=x&client_secret=y&scope=%00',
    '%',
    '&&==',
  ),
  hostileStrings.map((text) => new URLSearchParams({ grant_type: 'client_credentials', client_id: text }).toString()),
);

describe('no input produces a 500 on routes without a bearer', () => {
  for (const spec of routeList.filter((r) => r.auth === 'none')) {
    it(`${spec.method} ${spec.path} answers junk Authorization headers and bodies without a 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(authorizations, contentTypes, formBodies, async (authorization, contentType, raw) => {
          const res = await t.request(spec.method, `/v1/qc${spec.path}`, {
            headers: { authorization, 'content-type': contentType },
            raw: spec.method === 'GET' ? undefined : raw,
          });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(String(res.body?.message)).toStartWith('errors.');
        }),
        { numRuns: 40 },
      );
    });
  }
});
