import fc from 'fast-check';

/**
 * What the fuzz walks (route-table.fuzz.test.ts for the partner API, operator-routes.fuzz.test.ts for the
 * operator API) feed every route: odd path segments, hostile strings, malformed and oversized bodies, junk
 * query strings. Issue 16's causes of 500s are generators here.
 */

export const segments = fc.constantFrom(
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
export const hostileStrings = fc.oneof(
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
export const rawBodies = fc.oneof(
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
export const queries = fc.dictionary(
  fc.constantFrom('page', 'limit', 'since', 'from', 'to', 'status', 'per_page', 'consolidated', 'name'),
  queryValues,
  { maxKeys: 3 },
);
