/**
 * The local receiver of `bench/webhooks.ts`, in a process of its own as a partner's would be:
 * `bun bench/servers/webhook-receiver.ts <port>` with the subscription's secret in BENCH_WEBHOOK_SECRET. It checks
 * every spec 6.1 header and the signature (signature.ts, as partners copy it), answers 204, and writes one line per
 * delivery to stdout: `<event id> <arrival time in ms since the epoch, fractional>`, or `bad <reason>`.
 */
import { signatureMatches } from '../../server/webhooks/signature.ts';

const secret = process.env.BENCH_WEBHOOK_SECRET as string;
const HEADERS = [
  'x-qc-timestamp',
  'x-qc-signature-256',
  'x-qc-subscription',
  'x-qc-delivery',
  'x-qc-event',
  'x-qc-attempt',
];
const out = Bun.stdout.writer();
const FLUSH_MS = 2;
let flushing = false;

Bun.serve({
  port: Number(process.argv[2]),
  hostname: '127.0.0.1',
  async fetch(request) {
    const arrived = performance.timeOrigin + performance.now();
    const body = await request.text();
    const missing = HEADERS.find((h) => !request.headers.get(h));
    const signed =
      !missing &&
      (await signatureMatches(
        secret,
        request.headers.get('x-qc-timestamp') as string,
        body,
        request.headers.get('x-qc-signature-256') as string,
      ));
    out.write(signed ? `${(JSON.parse(body) as { id: string }).id} ${arrived}\n` : `bad ${missing ?? 'signature'}\n`);
    // The lines leave together every FLUSH_MS, not one write each: each line is a wake-up of the bench process,
    // which is the service's process, so a write per delivery made the measurement cost the service CPU.
    if (!flushing) {
      flushing = true;
      setTimeout(() => {
        flushing = false;
        out.flush();
      }, FLUSH_MS);
    }
    return new Response(null, { status: signed ? 204 : 400 });
  },
});
console.error('ready');
