/**
 * A partner's first hour with the typed client: get a token, find a property and a rate plan, push a
 * price, then read the booking feed and acknowledge one revision.
 *
 *   npm run client:example -- http://localhost:8080 <client_id> <client_secret>
 *   npm run client:example            (with QC, CLIENT_ID and CLIENT_SECRET exported, as in the README's quick start)
 *
 * It acknowledges only the first revision: acks are per credential and final, and the quick start's step 6
 * reads the same demo feed afterwards. A real consumer stores and acks every revision it reads.
 */
import { createQcClient } from './index.ts';

export interface FirstHour {
  property: string;
  pushed: { written: number; dry: boolean };
  /** The revision acknowledged, if the feed held any. */
  acknowledged: number | undefined;
  /** Revisions of the first page left in the feed. */
  waiting: number;
}

export async function firstHour(
  baseUrl: string,
  credentials: { clientId: string; clientSecret: string },
  log: (line: string) => void = console.log,
): Promise<FirstHour> {
  // The client fetches the OAuth token on its first call and renews it before it expires.
  const qc = createQcClient(baseUrl, credentials);

  const properties = await qc.GET('/v1/qc/properties');
  if (!properties.data) throw new Error(`properties: ${properties.error?.detail}`);
  const property = properties.data.data.properties.find((p) => p.mode === 'live') ?? properties.data.data.properties[0];
  if (!property) throw new Error('this credential may act on no property');
  log(`property ${property.name} (${property.external_property_id}, ${property.mode})`);

  const plans = await qc.GET('/v1/qc/properties/{property}/rate_plans', {
    params: { path: { property: property.external_property_id } },
  });
  if (!plans.data) throw new Error(`rate plans: ${plans.error?.detail}`);
  const pair = plans.data.data.rate_plans.find((p) => p.sell_type === 'per_room' && p.prices_writable);
  if (!pair) throw new Error('no per-room rate plan takes prices on this property');

  const from = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const push = await qc.POST('/v1/qc/properties/{property}/inventory/rates', {
    params: {
      path: { property: property.external_property_id },
      // The same key and body within 24 hours replays the first answer: retrying is safe.
      header: { 'Idempotency-Key': `first-hour-${property.external_property_id}-${from}` },
    },
    body: {
      values: [{ room_type_id: pair.room_type_id, rate_plan_id: pair.id, date_from: from, date_to: from, rate: 135 }],
    },
  });
  if (!push.data) throw new Error(`push: ${push.error?.message}: ${push.error?.detail}`);
  const { written, unchanged, dry } = push.data.data;
  log(
    `pushed 135 for ${from}: ${written} day-row(s) written, ${unchanged} unchanged${dry ? ' (shadow: dry run)' : ''}`,
  );

  const feed = await qc.GET('/v1/qc/booking_revisions/feed', { params: { query: { since: '0', limit: '50' } } });
  if (!feed.data) throw new Error(`feed: ${feed.error?.detail}`);
  const [first, ...rest] = feed.data.data.booking_revisions;
  for (const revision of feed.data.data.booking_revisions)
    log(`revision ${revision.id}: ${revision.revision_type} of booking ${revision.inbound_booking_id}`);
  if (first) {
    // Store the revision first (here: log it), then ack it; an unacked revision comes back on the next poll.
    const ack = await qc.POST('/v1/qc/booking_revisions/{revision}/ack', {
      params: { path: { revision: String(first.id) } },
    });
    if (ack.error) throw new Error(`ack ${first.id}: ${ack.error.detail}`);
  }
  log(
    first
      ? `acknowledged revision ${first.id}; ${rest.length} more left in the feed (a real consumer acks each once stored)`
      : 'the feed is empty until the next booking',
  );
  return {
    property: property.external_property_id,
    pushed: { written, dry },
    acknowledged: first?.id,
    waiting: rest.length,
  };
}

if (import.meta.main) {
  const [baseUrl = process.env.QC, clientId = process.env.CLIENT_ID, clientSecret = process.env.CLIENT_SECRET] =
    process.argv.slice(2);
  if (!baseUrl || !clientId || !clientSecret) {
    console.error(
      'usage: npm run client:example -- <base_url> <client_id> <client_secret> (or export QC, CLIENT_ID, CLIENT_SECRET)',
    );
    process.exit(2);
  }
  await firstHour(baseUrl, { clientId, clientSecret });
}
