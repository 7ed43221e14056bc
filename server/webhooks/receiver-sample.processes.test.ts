import { afterAll, describe, expect, it } from 'bun:test';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import type { Demo } from '../demo/demo.ts';
import { childPort } from '../testing/free-port.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { signPayload } from './signature.ts';
import { commitBookingEvent, deliveryRows, retireSubscriptions, subscribe, WallClock } from './test-support.ts';

/**
 * The README's webhook receiver sample ("Receiving webhooks") run as a partner runs it: the code block as it
 * stands, saved beside copies of receiver.ts and signature.ts, started with Bun, the service delivering to it. It
 * once called a queueFeedPoll it never defined: copied verbatim, every genuine delivery threw, was answered 500
 * and retried until the subscription was disabled.
 */
const repoRoot = join(import.meta.dir, '..', '..');

function readmeReceiverSample(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.split('\n### Receiving webhooks\n')[1]?.split('\n## ')[0] ?? '';
  const sample = /^```ts\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (!sample) throw new Error('README.md has no ts code block under "### Receiving webhooks"');
  return sample;
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await Bun.sleep(50);
  }
}

describe("the README's webhook receiver sample", () => {
  let t: TestApp;
  let demo: Demo;
  let sample: Subprocess<'ignore', 'pipe', 'pipe'> | undefined;

  afterAll(async () => {
    sample?.kill();
    await sample?.exited;
    if (demo) await retireSubscriptions(t.deps, demo.customer_id);
    await t?.close();
  });

  it('runs as copied: a genuine delivery is delivered at the first attempt, a repeat answers 200, a forgery 400', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qc-receiver-sample-'));
    for (const file of ['receiver.ts', 'signature.ts']) copyFileSync(join(import.meta.dir, file), join(dir, file));
    writeFileSync(join(dir, 'server.ts'), readmeReceiverSample());

    t = await startTestApp({ clock: new WallClock(), env: { REDIS_URL: '' }, webhooks: { pollMs: 50 } });
    demo = await t.demo();
    const port = childPort();
    const url = `http://127.0.0.1:${port}/hooks`;
    const sub = await subscribe(t, demo.personal_token, { url, event_types: ['booking.created'] });
    sample = Bun.spawn([process.execPath, 'server.ts'], {
      cwd: dir,
      env: { PATH: process.env.PATH, PORT: String(port), QC_WEBHOOK_SECRET: sub.secret, QC_SUBSCRIPTION_ID: sub.id },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    // Listening once it answers: a request without the headers is refused by the verification.
    await until(
      () =>
        fetch(url, { method: 'POST' }).then(
          (res) => res.status === 400,
          () => false,
        ),
      'the sample listens',
    );

    await commitBookingEvent(t, demo, 'booking.created', 1);
    await until(
      async () => (await deliveryRows(t.deps, sub.id)).some((row) => row.status !== 'pending'),
      'the delivery was attempted',
    );
    expect((await deliveryRows(t.deps, sub.id)).map((row) => [row.status, row.attempts, row.last_error])).toEqual([
      ['delivered', 1, null],
    ]);

    // Its other branches, with a delivery signed here as the service signs one.
    const body = JSON.stringify({ id: 'evt-1', type: 'booking.created', created_at: '', property_id: 'P', data: {} });
    const timestamp = Math.floor(Date.now() / 1000);
    const send = (signature: string) =>
      fetch(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-qc-timestamp': String(timestamp),
          'x-qc-signature-256': signature,
          'x-qc-subscription': sub.id,
          'x-qc-delivery': 'delivery-1',
          'x-qc-event': 'booking.created',
          'x-qc-attempt': '1',
        },
      });
    const signed = await signPayload(sub.secret, timestamp, body);
    expect((await send(signed)).status).toBe(204);
    expect((await send(signed)).status).toBe(200);
    const forged = await send(await signPayload('whsec_not_the_secret', timestamp, body));
    expect([forged.status, await forged.text()]).toEqual([400, 'bad_signature']);

    // The stub ran for the genuine delivery, with its property.
    sample.kill();
    await sample.exited;
    const printed = await new Response(sample.stdout).text();
    expect(printed).toContain(`feed poll queued for ${demo.properties[0]?.external_property_id}`);
  }, 60_000);
});
