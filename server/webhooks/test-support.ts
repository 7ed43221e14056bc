import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../core/clock.ts';
import type { Deps } from '../core/deps.ts';
import { recordEvent } from '../core/outbox.ts';
import type { Demo } from '../demo/demo.ts';
import { perFile, perTest, startTestApp, type TestApp } from '../testing/harness.ts';
import type { WebhookOptions, Webhooks } from './dispatcher.ts';

/**
 * Shared pieces of the webhook tests: a real HTTP receiver on a free local port, a clock that follows
 * real time (BullMQ delays are real milliseconds), and shortcuts to subscribe and to commit an event.
 */
export interface Received {
  headers: Headers;
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
}

export type Responder = (request: Received, index: number) => Response | Promise<Response>;

/** A receiver that accepts the connection and never answers: each attempt waits out its deadline. */
export const hang: Responder = () => new Promise<Response>(() => {});

export interface TestReceiver {
  url: string;
  received: Received[];
  respond: Responder;
  /** Resolves once `count` requests arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  stop(): Promise<void>;
}

export interface ReceiverOptions {
  /** Serve HTTPS with this certificate (see selfSignedCertificate()). */
  tls?: { cert: string; key: string };
}

export function startReceiver(
  respond: Responder = () => new Response('ok'),
  options: ReceiverOptions = {},
): TestReceiver {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: TestReceiver = {
    url: '',
    received,
    respond,
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received.slice(0, count));
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice(0, count));
          },
        });
      }),
    stop: async () => {
      await server.stop(true);
    },
  };
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 30,
    tls: options.tls,
    async fetch(request) {
      const entry = { headers: request.headers, body: await request.text(), at: Date.now() };
      const index = received.push(entry) - 1;
      for (const w of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      return receiver.respond(entry, index);
    },
  });
  receiver.url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${server.port}/hooks`;
  return receiver;
}

/** A ManualClock that reads the system time: for tests where BullMQ waits real milliseconds. */
export class WallClock extends ManualClock {
  override now(): Date {
    return new Date();
  }
  override deadline(ms: number): AbortSignal {
    return AbortSignal.timeout(ms);
  }
}

/** Commits one outbox event the way every feature does (recordEvent inside a transaction). */
export async function commitEvent(
  deps: Deps,
  event: { type: string; customerId: number; propertyId: number | null; data?: Record<string, unknown> },
): Promise<{ id: number; event_id: string }> {
  return deps.db.tx((tx) => recordEvent(tx, { ...event, data: event.data ?? {} }));
}

export const bookingData = (n = 1) => ({
  booking_id: `QDO-TEST-${n}`,
  revision_id: n,
  checkin_date: '2026-05-01',
  checkout_date: '2026-05-04',
});

/** Internal id of a demo property, by its external id. */
export async function propertyPk(deps: Deps, externalId: string): Promise<number> {
  const [row] = await deps.db.sql<{ id: number }>`select id from properties where external_id = ${externalId}`;
  if (!row) throw new Error(`no property ${externalId}`);
  return row.id;
}

/** Internal id of the demo's first property, where the tests' booking events happen. */
export function firstPropertyPk(t: TestApp, demo: Demo): Promise<number> {
  return propertyPk(t.deps, demo.properties[0]?.external_property_id ?? '');
}

/** Commits a booking event of revision `n` on the demo's first property. */
export async function commitBookingEvent(t: TestApp, demo: Demo, type: string, n: number) {
  return commitEvent(t.deps, {
    type,
    customerId: demo.customer_id,
    propertyId: await firstPropertyPk(t, demo),
    data: bookingData(n),
  });
}

/** Commits booking events of revisions 1 to `count` on the demo's first property, in one transaction. */
export async function commitBookingEvents(t: TestApp, demo: Demo, type: string, count: number): Promise<void> {
  const propertyId = await firstPropertyPk(t, demo);
  await t.deps.db.tx(async (tx) => {
    for (let n = 1; n <= count; n++)
      await recordEvent(tx, { type, customerId: demo.customer_id, propertyId, data: bookingData(n) });
  });
}

export interface SteppedWebhookTest {
  clock: ManualClock;
  t: TestApp;
  /** The worker, which only runs when the test calls runDue() on it. */
  webhooks: Webhooks;
  demo: Demo;
  /** A receiver started with the app and stopped after it (after the demo's subscriptions are retired). */
  receiver(respond?: Responder, options?: ReceiverOptions): TestReceiver;
}

/**
 * A test app on a ManualClock set to `start` whose webhook worker never runs in the background, so a test
 * steps time and deliveries itself; and a fresh demo customer to subscribe with. Made in beforeAll and torn
 * down in afterAll (`each: true`: afresh for every test, the clock back at `start`): the demo's
 * subscriptions are retired, the app closed and the receivers stopped.
 */
export function steppedWebhookTest(
  start: Date,
  options: Omit<WebhookOptions, 'autorun'> = {},
  { each = false }: { each?: boolean } = {},
): SteppedWebhookTest {
  const hooked = each ? perTest : perFile;
  const clock = new ManualClock(start);
  const t = hooked(
    () => {
      clock.set(start);
      return startTestApp({ clock, webhooks: { autorun: false, ...options } });
    },
    (app) => app.close(),
  );
  const webhooks = hooked(async () => {
    if (!t.webhooks) throw new Error('webhooks not started');
    return t.webhooks;
  });
  const demo = hooked(
    () => t.demo(),
    (made) => retireSubscriptions(t.deps, made.customer_id),
  );
  const receiver = (respond?: Responder, receiverOptions?: ReceiverOptions) =>
    hooked(
      async () => startReceiver(respond, receiverOptions),
      (made) => made.stop(),
    );
  return { clock, t, webhooks, demo, receiver };
}

/** A demo customer of one test file whose subscriptions are retired when the file ends (see retireSubscriptions). */
export function subscriberDemoPerFile(t: TestApp): Demo {
  return perFile(
    () => t.demo(),
    (made) => retireSubscriptions(t.deps, made.customer_id),
  );
}

/** Tears a webhook test down: retires the demo's subscriptions, closes the app, then stops the receivers. */
export async function stopWebhookTest(t: TestApp, demo: Demo, ...receivers: TestReceiver[]): Promise<void> {
  await retireSubscriptions(t.deps, demo.customer_id);
  await t.close();
  for (const receiver of receivers) await receiver.stop();
}

export async function subscribe(t: TestApp, token: string, body: Record<string, unknown>) {
  const res = await t.request<{ data: { id: string; secret: string } }>('POST', '/v1/qc/subscriptions', {
    token,
    body,
  });
  if (res.status !== 201) throw new Error(`subscribe failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Deliveries of one subscription straight from the table (what the worker persisted). */
export async function deliveryRows(deps: Deps, subscriptionExternalId: string) {
  return deps.db.sql<{
    id: number;
    external_id: string;
    status: string;
    attempts: number;
    next_attempt_at: Date | null;
    event_type: string;
    last_error: string | null;
  }>`
    select d.id, d.external_id, d.status, d.attempts, d.next_attempt_at, d.event_type, d.last_error
    from deliveries d join subscriptions s on s.id = d.subscription_id
    where s.external_id = ${subscriptionExternalId} order by d.id`;
}

/** Ends a test's subscriptions so later tests' sweeps do not keep retrying them against a stopped receiver. */
export async function retireSubscriptions(deps: Deps, customerId: number): Promise<void> {
  // Two statements, not one transaction: an attempt finishing meanwhile locks its delivery, then its
  // subscription; holding the customer's deliveries while waiting for its subscriptions made a deadlock.
  await deps.db
    .sql`update subscriptions set deleted_at = now() where customer_id = ${customerId} and deleted_at is null`;
  await deps.db.sql`update deliveries set status = 'dead', next_attempt_at = null where customer_id = ${customerId}
    and status in ('pending', 'failed', 'delivering')`;
}

/** A throwaway self-signed certificate for 127.0.0.1 (openssl on PATH), which no client trusts. */
export function selfSignedCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'qc-webhooks-tls-'));
  const made = Bun.spawnSync(
    [
      'openssl',
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdout: 'ignore', stderr: 'pipe' },
  );
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
}
