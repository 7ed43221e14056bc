import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import type { Demo } from '../demo/demo.ts';
import { EMBEDDED, OPERATOR_TOKEN, startTestApp, TEST_KEY_ENCRYPTION_KEY, type TestApp } from '../testing/harness.ts';
import {
  commitBookingEvent,
  deliveryRows,
  retireSubscriptions,
  startReceiver,
  subscribe,
  WallClock,
} from './test-support.ts';

/**
 * Kill -9 between the outbox commit and the delivery: the real server (`bun server/main.ts`) as a child
 * process, once with BullMQ and once with the in-process queue. Event A is in flight (the receiver holds
 * the request) when the server dies; event B is committed while it is down. After a restart both arrive:
 * B at once, A when the dead worker's lease runs out, as attempt 2 under the same delivery id.
 */
const repoRoot = join(import.meta.dir, '..', '..');

interface Server {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>;
  exited: Promise<number>;
}

async function startServer(env: Record<string, string | undefined>): Promise<Server> {
  const proc = Bun.spawn([process.execPath, 'server/main.ts'], {
    cwd: repoRoot,
    env,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let ready: () => void = () => {};
  const listening = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of stream) {
      text += decoder.decode(chunk);
      if (text.includes('"msg":"listening"')) ready();
      text = text.slice(-2000);
    }
  };
  void drain(proc.stdout);
  void drain(proc.stderr);
  await Promise.race([listening, proc.exited.then((code) => Promise.reject(new Error(`server exited with ${code}`)))]);
  return { proc, exited: proc.exited };
}

const modes = [
  { name: 'BullMQ', redis: true },
  { name: 'in-process queue', redis: false },
] as const;

for (const mode of modes) {
  // A child process shares the database only through PostgreSQL (and the queue through Redis, for BullMQ).
  describe.skipIf(!process.env.DATABASE_URL || EMBEDDED || (mode.redis && !process.env.REDIS_URL))(
    `restart with deliveries outstanding (${mode.name})`,
    () => {
      let t: TestApp;
      let demo: Demo;
      let server: Server | undefined;

      beforeAll(async () => {
        // This test app only serves the API calls; the child process does the delivering.
        t = await startTestApp({ clock: new WallClock() });
        demo = await t.demo();
      });
      afterAll(async () => {
        server?.proc.kill('SIGTERM');
        await server?.exited;
        await retireSubscriptions(t.deps, demo.customer_id);
        await t.close();
      });

      it('delivers after kill -9: the event committed while down at once, the one in flight as attempt 2', async () => {
        let held = false;
        const receiver = startReceiver(() => {
          if (held) return new Response('ok');
          held = true;
          return new Promise<Response>(() => {}); // the first request is never answered
        });
        try {
          const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
          const env = {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            DATABASE_URL: process.env.DATABASE_URL,
            DATABASE_SESSION_URL: process.env.DATABASE_SESSION_URL,
            REDIS_URL: mode.redis ? process.env.REDIS_URL : undefined,
            PORT: '0',
            HOST: '127.0.0.1',
            QC_OPERATOR_TOKEN: OPERATOR_TOKEN,
            QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
            QC_DATA_DIR: mkdtempSync(join(tmpdir(), 'qc-webhooks-restart-')),
            QC_DEMO_ON_EMPTY: '0',
            QC_WEBHOOK_ALLOW_PRIVATE: '1',
            QC_LOG_LEVEL: 'info',
          };
          const emit = (n: number) => commitBookingEvent(t, demo, 'booking.created', n);

          server = await startServer(env);
          await emit(1);
          const [first] = await receiver.waitFor(1);
          server.proc.kill('SIGKILL');
          await server.exited;
          expect((await deliveryRows(t.deps, sub.id)).map((r) => r.status)).toEqual(['delivering']);

          await emit(2);
          await Bun.sleep(300);
          expect(receiver.received).toHaveLength(1);

          server = await startServer(env);
          const got = await receiver.waitFor(3, 20_000);
          const byRevision = (n: number) => got.filter((r) => JSON.parse(r.body).data.revision_id === n);
          expect(byRevision(2).map((r) => r.headers.get('x-qc-attempt'))).toEqual(['1']);
          const retried = byRevision(1);
          expect(retried.map((r) => r.headers.get('x-qc-attempt'))).toEqual(['1', '2']);
          expect(retried[1]?.headers.get('x-qc-delivery')).toBe(first?.headers.get('x-qc-delivery') ?? 'missing');
          // The lease (twice the 5 s deadline) had to run out before another worker took delivery 1 over.
          expect((retried[1]?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(9000);

          const deadline = Date.now() + 5000;
          let statuses: string[] = [];
          while (Date.now() < deadline) {
            statuses = (await deliveryRows(t.deps, sub.id)).map((r) => r.status);
            if (statuses.every((s) => s === 'delivered')) break;
            await Bun.sleep(50);
          }
          expect(statuses).toEqual(['delivered', 'delivered']);
        } finally {
          await receiver.stop();
        }
      }, 40_000);
    },
  );
}
