import { afterAll, describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';
import { relayBatch } from './relay.ts';
import { commitEvent, retireSubscriptions, subscribe } from './test-support.ts';

/**
 * Spec 5.5 (property allow-list) for account-level events whose data lists properties: a subscription is sent only
 * what its property filter covers, the rule property-level events follow. catalogue_sync.completed lists the
 * properties a job replaced or cleared, auto_email_template.* the properties a template targets.
 */
const t = testAppPerFile();
const customer = perFile(() => customerFixture(t.deps));
afterAll(() => retireSubscriptions(t.deps, customer.customerId));

const URL = 'https://pms.example.com/hooks/qc';

/** A fixed credential granted one property, subscribed to `event` (every property it may see: that one). */
async function narrowSubscription(propertyExternalId: string, event: string): Promise<string> {
  const client = await t.client({
    customer_id: customer.customerId,
    scopes: ['subscriptions.manage', 'properties.manage'],
    property_ids: [propertyExternalId],
  });
  return (await subscribe(t, client.token, { url: URL, event })).id;
}

/** The newest outbox event: deliveredData reads the deliveries of events committed after it. */
async function mark(): Promise<number> {
  const [row] = await t.deps.db.sql<{ id: number }>`select coalesce(max(id), 0)::bigint as id from outbox_events`;
  return Number(row?.id ?? 0);
}

/** Relays everything committed, then the data of each subscription's deliveries of `type` (none: an empty list). */
async function deliveredData(after: number, type: string, ...subscriptions: string[]): Promise<unknown[][]> {
  for (let pass = 0; pass < 20; pass++) if ((await relayBatch(t.deps)).events === 0) break;
  const answer: unknown[][] = [];
  for (const id of subscriptions) {
    const rows = await t.deps.db.sql<{ body: string }>`
      select d.body from deliveries d join subscriptions s on s.id = d.subscription_id
      where s.external_id = ${id} and d.event_type = ${type} and d.outbox_event_id > ${after} order by d.id`;
    answer.push(rows.map((r) => JSON.parse(r.body).data));
  }
  return answer;
}

async function sync(...properties: string[]) {
  const res = await t.request('POST', '/v1/qc/catalogue-sync', {
    token: customer.token,
    body: { properties: properties.map((property_id) => ({ property_id })) },
  });
  expect(res.status).toBe(202);
  return res.body.data.id as string;
}

describe('catalogue_sync.completed and the subscription’s properties', () => {
  it('lists to each subscription only the properties it covers, and sends a job touching none of them to no one', async () => {
    const { live, shadow } = customer;
    const onLive = await narrowSubscription(live.external_id, 'catalogue_sync.completed');
    const onShadow = await narrowSubscription(shadow.external_id, 'catalogue_sync.completed');
    const everywhere = (await subscribe(t, customer.token, { url: URL, event: 'catalogue_sync.completed' })).id;

    let after = await mark();
    const both = await sync(live.external_id, shadow.external_id);
    expect(await deliveredData(after, 'catalogue_sync.completed', onLive, onShadow, everywhere)).toEqual([
      [{ job_id: both, replaced: [live.external_id], cleared: [], failed: 0 }],
      [{ job_id: both, replaced: [shadow.external_id], cleared: [], failed: 0 }],
      [{ job_id: both, replaced: [live.external_id, shadow.external_id], cleared: [], failed: 0 }],
    ]);

    after = await mark();
    const liveOnly = await sync(live.external_id);
    expect(await deliveredData(after, 'catalogue_sync.completed', onLive, onShadow, everywhere)).toEqual([
      [{ job_id: liveOnly, replaced: [live.external_id], cleared: [], failed: 0 }],
      [],
      [{ job_id: liveOnly, replaced: [live.external_id], cleared: [], failed: 0 }],
    ]);
  });
});

describe('auto_email_template.* and the subscription’s properties', () => {
  it('is sent only to subscriptions covering every property the template targets', async () => {
    const { live, shadow } = customer;
    const onLive = await narrowSubscription(live.external_id, 'auto_email_template.created');
    const everywhere = (await subscribe(t, customer.token, { url: URL, event: 'auto_email_template.created' })).id;
    // The data templates.ts records: an account-level event naming the template's target properties.
    const template = (id: string, targets: string[]) =>
      commitEvent(t.deps, {
        type: 'auto_email_template.created',
        customerId: customer.customerId,
        propertyId: null,
        data: { template_id: id, event: 'booking.created', property_ids: targets },
      });
    const bothTargets = {
      template_id: crypto.randomUUID(),
      event: 'booking.created',
      property_ids: [live.external_id, shadow.external_id],
    };
    let after = await mark();
    await template(bothTargets.template_id, bothTargets.property_ids);
    expect(await deliveredData(after, 'auto_email_template.created', onLive, everywhere)).toEqual([[], [bothTargets]]);

    const liveTarget = { template_id: crypto.randomUUID(), event: 'booking.created', property_ids: [live.external_id] };
    after = await mark();
    await template(liveTarget.template_id, liveTarget.property_ids);
    expect(await deliveredData(after, 'auto_email_template.created', onLive, everywhere)).toEqual([
      [liveTarget],
      [liveTarget],
    ]);
  });
});
