/**
 * Re-records harness/examples/legacy-session.har: a PMS session against a fresh demo customer of a real port
 * (`bun server/main.ts` on DATABASE_URL / REDIS_URL), through `harness record`. The session is every legacy
 * method: property reads, the PMS's property data, availability written and read, offers, bookings fetched,
 * a room assigned, every booking acked, getBookings again (now empty), a second ack (refused), and two errors.
 *
 *     DATABASE_URL=postgres://... REDIS_URL=redis://... bun harness/examples/record-examples.ts
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness } from '../testing/harness-cli.ts';
import { LegacyPort } from '../testing/legacy-port.ts';
import { ackCalls, replayableCalls, send, settle } from '../testing/pms-session.ts';

if (!process.env.DATABASE_URL) {
  console.error('set DATABASE_URL (and REDIS_URL): the example is recorded from the port on PostgreSQL');
  process.exit(2);
}

const out = join(import.meta.dir, 'legacy-session.har');
rmSync(out, { force: true });
const port = await LegacyPort.start();
try {
  const demo = await port.demo();
  await settle(port.url, demo);
  const proxy = await startHarness(['record', '--upstream', port.url, '--out', out]);
  for (const call of replayableCalls(demo)) await (await send(proxy.url, demo.api_key, call)).arrayBuffer();
  for (const call of await ackCalls(proxy.url, demo)) await (await send(proxy.url, demo.api_key, call)).arrayBuffer();
  await proxy.stop();
  console.log(`recorded ${out}`);
} finally {
  await port.stop();
}
