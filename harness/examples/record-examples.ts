/**
 * Re-records harness/examples/legacy-session.har: a PMS session against a fresh demo customer of a real port
 * (`bun server/main.ts` on DATABASE_URL / REDIS_URL), through `harness record`. The session is every legacy
 * method: property reads, the PMS's property data, availability written and read, offers, bookings fetched,
 * a room assigned, every booking acked, getBookings again (now empty), a second ack (refused), and two errors.
 * It also writes legacy-session.json: the demo's bm_code, which no answer of the session reveals (a replay maps
 * it with --map bm_code:RECORDED=REPLAYED).
 *
 *     DATABASE_URL=postgres://... REDIS_URL=redis://... bun harness/examples/record-examples.ts
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness } from '../testing/harness-cli.ts';
import { LegacyPort } from '../testing/legacy-port.ts';
import { ackCalls, replayableCalls, send } from '../testing/pms-session.ts';

if (!process.env.DATABASE_URL) {
  console.error('set DATABASE_URL (and REDIS_URL): the example is recorded from the port on PostgreSQL');
  process.exit(2);
}

const out = join(import.meta.dir, 'legacy-session.har');
rmSync(out, { force: true });
const port = await LegacyPort.start();
try {
  // Recorded from a fresh demo as it is created (no call before the recording), so a replay with --allow-writes
  // against another fresh demo starts from the same state and must agree byte for byte (harness/README.md).
  const demo = await port.demo();
  const proxy = await startHarness(['record', '--upstream', port.url, '--out', out]);
  for (const call of replayableCalls(demo)) await (await send(proxy.url, demo.api_key, call)).arrayBuffer();
  for (const call of await ackCalls(proxy.url, demo)) await (await send(proxy.url, demo.api_key, call)).arrayBuffer();
  await proxy.stop();
  await Bun.write(
    join(import.meta.dir, 'legacy-session.json'),
    `${JSON.stringify({ api_key: demo.api_key, bm_code: demo.bm_code }, null, 2)}\n`,
  );
  console.log(`recorded ${out}`);
} finally {
  await port.stop();
}
