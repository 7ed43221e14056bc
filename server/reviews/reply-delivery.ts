import type { Deps } from '../core/deps.ts';
import { errorFields } from '../core/log.ts';
import { recordEvent } from '../core/outbox.ts';
import { withTimeout } from '../core/timeout.ts';

/** Seconds to wait after the n-th failed attempt; after the last, the delivery is `failed` for good. */
export const REPLY_RETRY_LADDER = [30, 120, 600, 1800, 3600, 3600, 3600, 3600, 3600, 3600] as const;
const SEND_TIMEOUT_MS = 10_000;
/**
 * A claimed delivery whose process died is taken again after this. A batch's sends run at once, so all of them
 * end within SEND_TIMEOUT_MS of the claim: far inside the lease, which therefore never runs out under a live
 * process (sent one after another, a batch of 20 silent sends took up to 200 s, and its replies were claimed and
 * sent again).
 */
const LEASE_MS = 60_000;

interface Claimed {
  review_id: number;
  attempts: number;
  external_id: string;
  channel: string;
  channel_review_id: string;
  reply_text: string;
  replied_at: Date;
  customer_id: number;
  property_id: number;
  property_external_id: string;
}

/**
 * Sends due review replies to their channels: claims them (`skip locked`, with a lease, so several processes
 * share the work and a crashed claim is retried), sends each through the channel gateway, and records the
 * outcome on the delivery row, which the review shows as `reply.delivery`. The batch's sends run concurrently
 * (at most `limit` at once). Answers how many were attempted.
 */
export async function deliverDueReplies(deps: Deps, limit = 20): Promise<number> {
  const now = deps.clock.now();
  const claimed = await deps.db.sql<Claimed>`
    with due as (
      select review_id from review_reply_deliveries
      where (status = 'pending' and next_attempt_at <= ${now}) or (status = 'sending' and lease_until < ${now})
      order by next_attempt_at limit ${limit} for update skip locked
    )
    update review_reply_deliveries d set status = 'sending', lease_until = ${new Date(now.getTime() + LEASE_MS)}
    from due, reviews r, properties p
    where d.review_id = due.review_id and r.id = d.review_id and p.id = r.property_id
    returning d.review_id, d.attempts, r.external_id, r.channel, r.channel_review_id, r.reply_text, r.replied_at,
      p.customer_id, p.id as property_id, p.external_id as property_external_id`;
  // Together, not in turn: a channel gateway that hangs on one reply must not hold back the batch's others.
  const outcomes = await Promise.allSettled(claimed.map((job) => attempt(deps, job)));
  const failed = outcomes.find((o) => o.status === 'rejected');
  if (failed) throw failed.reason;
  return claimed.length;
}

async function attempt(deps: Deps, job: Claimed): Promise<void> {
  let failure: string | undefined;
  try {
    await sendToChannel(deps, job);
  } catch (err) {
    failure = err instanceof Error ? err.message : String(err);
    deps.log.warn('review reply delivery failed', { ...errorFields(err), review_id: job.external_id });
  }
  const attempts = job.attempts + 1;
  const now = deps.clock.now();
  await deps.db.tx(async (tx) => {
    if (failure === undefined) {
      await tx.sql`update review_reply_deliveries set status = 'sent', attempts = ${attempts}, sent_at = ${now},
        last_error = null, lease_until = null where review_id = ${job.review_id}`;
      await recordEvent(tx, {
        type: 'review.reply_sent',
        customerId: job.customer_id,
        propertyId: job.property_id,
        data: { property_id: job.property_external_id, review_id: job.external_id, channel: job.channel, attempts },
      });
      return;
    }
    const wait = REPLY_RETRY_LADDER[attempts - 1];
    if (wait !== undefined) {
      await tx.sql`update review_reply_deliveries set status = 'pending', attempts = ${attempts},
        last_error = ${failure}, lease_until = null, next_attempt_at = ${new Date(now.getTime() + wait * 1000)}
        where review_id = ${job.review_id}`;
      return;
    }
    await tx.sql`update review_reply_deliveries set status = 'failed', attempts = ${attempts}, last_error = ${failure},
      lease_until = null where review_id = ${job.review_id}`;
    await recordEvent(tx, {
      type: 'review.reply_failed',
      customerId: job.customer_id,
      propertyId: job.property_id,
      data: { property_id: job.property_external_id, review_id: job.external_id, channel: job.channel, attempts },
    });
  });
}

/**
 * POST {QC_CHANNEL_GATEWAY_URL}/{channel}/reviews/{channel_review_id}/reply: the platform's channel gateway
 * holds the OTA connections. The review id is the Idempotency-Key, so a retry after a lost answer does not
 * publish twice. Anything but a 2xx within 10 seconds is a failed attempt.
 */
async function sendToChannel(deps: Deps, job: Claimed): Promise<void> {
  const gateway = deps.config.channelGatewayUrl;
  if (!gateway) throw new Error('no channel gateway configured (QC_CHANNEL_GATEWAY_URL)');
  const url = `${gateway.replace(/\/+$/, '')}/${job.channel}/reviews/${encodeURIComponent(job.channel_review_id)}/reply`;
  const controller = new AbortController();
  try {
    const res = await withTimeout(
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': job.external_id },
        body: JSON.stringify({
          property_id: job.property_external_id,
          review_id: job.external_id,
          channel_review_id: job.channel_review_id,
          text: job.reply_text,
          replied_at: job.replied_at.toISOString(),
        }),
        signal: controller.signal,
      }),
      SEND_TIMEOUT_MS,
    );
    await res.body?.cancel();
    if (!res.ok) throw new Error(`channel gateway answered ${res.status}`);
  } finally {
    controller.abort();
  }
}

/** Runs deliverDueReplies every few seconds until stopped (server/main.ts starts it beside the webhooks). */
export function startReviewReplies(deps: Deps, everyMs = 5000): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => deliverDueReplies(deps))
      .catch((err) => deps.log.error('review replies', errorFields(err)));
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
