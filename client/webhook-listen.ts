/**
 * `npm run webhook:listen`: a local webhook receiver that verifies every delivery and prints it (the
 * `stripe listen` habit). With a token it subscribes itself to every event (and unsubscribes on exit); with
 * `--secret` it verifies the deliveries of a subscription you made.
 *
 *   npm run webhook:listen                                  (QC and TOKEN from the environment; the service must run
 *   npm run webhook:listen -- --secret whsec_... --port 4242  with QC_WEBHOOK_ALLOW_PRIVATE=1 to deliver to 127.0.0.1)
 *
 * The token is read from TOKEN (or QC_TOKEN) rather than taken as an argument: npm echoes a script's arguments
 * (`> bun client/webhook-listen.ts ...`), so `--token <token>` printed the whole credential to the terminal and
 * its scrollback. `--token` still works for scripts that pass it.
 *
 * The signing secret is the whole `whsec_...` string, prefix included: it is the HMAC key as shown once
 * when the subscription is created (verification: server/webhooks/receiver.ts, which you may copy).
 */
import { Command } from 'commander';
import { memorySeenStore, verifyWebhookRequest } from '../server/webhooks/receiver.ts';
import { createQcClient } from './index.ts';

export interface ListenOptions {
  /** The service's origin, for registering (with `token`). */
  baseUrl: string;
  /** A personal token (`qc_...`) with subscriptions.manage: the listener subscribes itself. */
  token?: string;
  /** The signing secret of an existing subscription (`whsec_...`), when not registering. */
  secret?: string;
  /** Event types to subscribe to; every type of the event catalogue by default. */
  events?: string[];
  port?: number;
  print?: (line: string) => void;
}

export interface Listener {
  url: string;
  subscriptionId?: string;
  /** Every delivery seen, verified or not. */
  deliveries: { ok: boolean; reason?: string; type?: string; deliveryId?: string }[];
  stop(): Promise<void>;
}

export async function listenForWebhooks(options: ListenOptions): Promise<Listener> {
  const print = options.print ?? console.log;
  const secrets: string[] = options.secret ? [options.secret] : [];
  const seen = memorySeenStore();
  const deliveries: Listener['deliveries'] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: options.port ?? 4242,
    async fetch(request) {
      const verdict = await verifyWebhookRequest(request, { secrets, seen });
      if (!verdict.ok) {
        deliveries.push({ ok: false, reason: verdict.reason });
        print(`✗ ${new Date().toISOString()} refused: ${verdict.reason} (${request.headers.get('x-qc-event') ?? '?'})`);
        // A duplicate was handled the first time: 2xx, so the service stops retrying it.
        return new Response(null, { status: verdict.reason === 'duplicate' ? 200 : 400 });
      }
      const { event, deliveryId, attempt } = verdict;
      deliveries.push({ ok: true, type: event.type, deliveryId });
      print(`✓ ${event.created_at} ${event.type} delivery ${deliveryId} attempt ${attempt}`);
      print(JSON.stringify(event.data, null, 2));
      return new Response(null, { status: 204 });
    },
  });
  const url = `http://127.0.0.1:${server.port}/`;

  let subscriptionId: string | undefined;
  const qc = options.token ? createQcClient(options.baseUrl, { token: options.token }) : undefined;
  if (qc) {
    const catalogue = await qc.GET('/v1/qc/event-catalog');
    const events = options.events ?? catalogue.data?.data.events.map((e) => e.type) ?? [];
    const created = await qc.POST('/v1/qc/subscriptions', { body: { url, event_types: events } });
    if (!created.data) {
      await server.stop(true);
      throw new Error(`subscribing ${url} failed: ${created.error?.message}: ${created.error?.detail}`);
    }
    subscriptionId = created.data.data.id;
    secrets.push(created.data.data.secret);
    print(`Subscribed ${url} to ${events.length} event types (subscription ${subscriptionId}).`);
  }
  if (secrets.length === 0) throw new Error('give --token (to subscribe) or --secret (of your subscription)');
  print(`Listening on ${url}: deliveries are verified (signature, timestamp, duplicates) and printed.`);

  return {
    url,
    subscriptionId,
    deliveries,
    async stop() {
      if (qc && subscriptionId) {
        await qc.DELETE('/v1/qc/subscriptions/{subscription}', { params: { path: { subscription: subscriptionId } } });
      }
      await server.stop(true);
    },
  };
}

if (import.meta.main) {
  const program = new Command('webhook:listen')
    .description('Receive, verify and print webhook deliveries on this machine')
    .option(
      '--base <url>',
      'the service (default: QC)',
      process.env.QC ?? process.env.QC_PUBLIC_URL ?? 'http://localhost:8080',
    )
    .option('--token <token>', 'a token with subscriptions.manage (default: TOKEN): subscribe this listener')
    .option('--secret <secret>', 'the whsec_... signing secret of an existing subscription')
    .option('--events <types>', 'comma-separated event types (default: all)')
    .option('--port <port>', 'local port', '4242')
    .parse();
  const opts = program.opts<{ base: string; token?: string; secret?: string; events?: string; port: string }>();
  try {
    const listener = await listenForWebhooks({
      baseUrl: opts.base,
      token: opts.token ?? process.env.TOKEN ?? process.env.QC_TOKEN,
      secret: opts.secret,
      events: opts.events?.split(','),
      port: Number(opts.port),
    });
    const stop = async () => {
      await listener.stop();
      process.exit(0);
    };
    process.on('SIGINT', () => void stop());
    process.on('SIGTERM', () => void stop());
  } catch (err) {
    // What went wrong is in the message (the service's own detail sentence); a stack trace only hides it.
    console.error(`webhook:listen: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
