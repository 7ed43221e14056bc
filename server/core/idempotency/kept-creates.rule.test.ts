import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every create keeps its Idempotency-Key with what it makes (kept-creates.ts): a create that forgets it makes a
 * second resource when retried after errors.qc.write_outcome_unknown. Reads the route modules: a partner route
 * answering 201 to a POST, and an operator route named `*.create`, takes a keptCreate, or is named below with the
 * reason it does not.
 */
const ROOT = join(import.meta.dir, '..', '..', '..');
const modules = [...new Bun.Glob('server/**/*.ts').scanSync({ cwd: ROOT })]
  .filter((file) => !/\.test\.ts$|(^|\/|-)test-[a-z-]+\.ts$|-test-fixture\.ts$/.test(file))
  .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

/** Creates that keep no row in idempotent_creates, and why. */
const NOT_KEPT: Record<string, string> = {
  // The booking keeps the key itself, in booking_intake_keys (server/bookings/intake-keys.ts).
  'server/bookings/create-booking.ts': 'booking intake key',
  'server/bookings/create-agency-booking.ts': 'booking intake key',
  'server/operator/take-booking.ts': 'booking intake key',
  // A credential's secret is shown once and stored as a digest: a kept answer would store it in the clear.
  'server/operator/create-client.ts': 'credential',
  'server/operator/mint-personal-token.ts': 'credential',
  'server/operator/create-legacy-key.ts': 'credential',
  // A signed token, stored nowhere: a second one is as good as the first.
  'server/operator/mint-dashboard-token.ts': 'stateless',
  // Deduplicated by the channel's review id: a retry updates the review it made.
  'server/operator/receive-review.ts': 'natural key',
  // Many transactions (a whole customer with every feature): a test fixture, not a partner write.
  'server/demo/create-demo.ts': 'fixture',
};

const creates = modules.filter(
  ({ text }) =>
    (/defineRoute\(/.test(text) && /method: 'POST'/.test(text) && /status: 201/.test(text)) ||
    /ownedCreateRoute\(\{/.test(text) ||
    (/defineOperatorRoute\(/.test(text) && /name: '[a-z]+\.[a-z_]+\.create'/.test(text)),
);

describe('kept creates', () => {
  it('finds the create routes', () => {
    expect(creates.length).toBeGreaterThan(25);
  });

  it('every create takes a keptCreate, or is named with its reason', () => {
    // The configuration entities' creates are ownedCreateRoute's: it keeps the key for all of them.
    const owned = modules.find((m) => m.path === 'server/config-surfaces/owned-routes.ts');
    expect(owned?.text).toMatch(/keptCreate\(/);
    const missing = creates
      .filter(({ path, text }) => !NOT_KEPT[path] && !/keptCreate\(|ownedCreateRoute\(\{/.test(text))
      .map(({ path }) => path);
    expect(missing).toEqual([]);
  });

  it('names no module that is not a create any more', () => {
    const paths = new Set(creates.map((c) => c.path));
    expect(Object.keys(NOT_KEPT).filter((path) => !paths.has(path))).toEqual([]);
  });
});
