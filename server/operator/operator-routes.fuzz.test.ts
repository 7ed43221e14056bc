import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { OPERATOR_PREFIX } from '../core/routes/operator-route.ts';
import { queries, rawBodies, segments } from '../core/routes/test-hostile-inputs.ts';
import { operatorRouteTable } from '../operator-route-table.ts';
import { OPERATOR_TOKEN, perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';

/**
 * The operator fuzz walk, like the partner API's: every operator and dashboard operation, with its surface's
 * credential, is fed malformed bodies, odd path segments and junk query strings, and answers a 4xx in the
 * envelope, never a 500. (POST /ops/demo and the signing-key rotation take no input; they are fed it anyway.)
 */
const t = testAppPerFile();
// Only the specs are read here; the app under test mounted its own table with its own cutover parts.
const table = operatorRouteTable({ sunset: undefined as never });
const dashboard = perFile(async () => ({
  token: await t.dashboardSession((await customerFixture(t.deps)).customerId),
}));

describe('no operator input produces a 500', () => {
  for (const spec of table.filter((r) => r.name !== 'ops.demo.create')) {
    it(`${spec.method} ${spec.path} (${spec.name}) answers malformed input with a 4xx in the envelope`, async () => {
      const token = spec.surface === 'ops' ? OPERATOR_TOKEN : (await dashboard).token;
      await fc.assert(
        fc.asyncProperty(segments, rawBodies, queries, async (segment, raw, query) => {
          const path = `${OPERATOR_PREFIX[spec.surface]}${spec.path.replace(/:(\w+)/g, () => encodeURIComponent(segment))}`;
          const res = await t.request(spec.method, path, {
            token,
            raw: spec.method === 'GET' || spec.method === 'DELETE' ? undefined : raw,
            query,
          });
          expect([spec.name, res.status < 500]).toEqual([spec.name, true]);
          if (res.status >= 400) expect(String((res.body as { message?: unknown })?.message)).toStartWith('errors.');
        }),
        { numRuns: 8 },
      );
    });
  }
});
