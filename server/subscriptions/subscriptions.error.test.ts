import { describe, expect, it } from 'bun:test';
import { errorEnvelope, validationEnvelope } from '../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { subscriberDemoPerFile } from '../webhooks/test-support.ts';

const URL_A = 'https://pms.example.com/hooks/qc';
const rule = (name: string) => [`customer.subscription.messages.${name}`];

describe('subscription refusals', () => {
  const t = testAppPerFile();
  const demo = subscriberDemoPerFile(t);
  const other = perFile(() => t.demo());

  const create = (body: unknown, token = demo.personal_token) =>
    t.request('POST', '/v1/qc/subscriptions', { token, body });

  it('refuses property ids outside the token scope with 422 errors.qc.subscription.unknown_property', async () => {
    const foreign = other.properties[0]?.external_property_id;
    const live = demo.properties[0]?.external_property_id ?? '';
    const shadowOnly = await t.client({
      customer_id: demo.customer_id,
      scopes: ['subscriptions.manage', 'bookings.read'],
      property_ids: [demo.properties[1]?.external_property_id ?? ''],
    });
    for (const [property_ids, token] of [
      [[foreign], demo.personal_token],
      [[other.properties[0]?.partner_code], demo.personal_token],
      [['00000000-0000-4000-8000-000000000000'], demo.personal_token],
      [['NO-SUCH-CODE'], demo.personal_token],
      [[live], shadowOnly.token],
    ] as const) {
      const res = await create({ url: URL_A, event: 'booking.created', property_ids }, token);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(errorEnvelope('errors.qc.subscription.unknown_property'));
      expect(res.headers.get('x-qc-support-ticket')).toMatch(/^QC-/);
    }
  });

  it('answers 422 validation errors per field', async () => {
    const missing = await create({});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual(
      validationEnvelope('url: is required and was missing. 1 more field failed too: the errors map lists each.', {
        url: rule('required'),
        event_types: rule('required'),
      }),
    );

    const unknown = await create({ url: URL_A, event_types: ['booking.created', 'booking.exploded'] });
    expect(unknown.body.errors).toEqual({ 'event_types.1': rule('unknown_event') });
    const single = await create({ url: URL_A, event: 'nope' });
    expect(single.body.errors).toEqual({ event: rule('unknown_event') });

    expect((await create({ url: 'ftp://pms.example.com/x', event: 'booking.created' })).body.errors).toEqual({
      url: rule('https_required'),
    });
    expect((await create({ target_url: 'not a url', event: 'booking.created' })).body.errors).toEqual({
      target_url: rule('invalid_url'),
    });

    const empty = await create({ url: URL_A, event_types: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.event_types).toEqual(rule('min_items'));
    const wrongType = await create({ url: URL_A, event: 'booking.created', property_ids: 'all' });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.message).toBe('errors.validation_error');
  });

  it('answers 404 for unknown or malformed subscription ids and validates updates like creates', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await t.request('GET', `/v1/qc/subscriptions/${id}`, { token: demo.personal_token });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('errors.not_found');
    }
    const created = await create({ url: URL_A, event: 'booking.created' });
    const bad = await t.request('PATCH', `/v1/qc/subscriptions/${created.body.data.id}`, {
      token: demo.personal_token,
      body: { url: 'http://pms.example.com/plain', property_ids: [other.properties[0]?.external_property_id] },
    });
    // The harness allows http for its local receivers; property scope is still checked.
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('errors.qc.subscription.unknown_property');
    const unchanged = await t.request('GET', `/v1/qc/subscriptions/${created.body.data.id}`, {
      token: demo.personal_token,
    });
    expect(unchanged.body.data.url).toBe(URL_A);
  });

  it('rejects an unknown delivery status filter with 422 errors.qc.deliveries.unknown_status', async () => {
    for (const path of ['/v1/qc/deliveries', '/v1/qc/health/webhooks']) {
      const res = await t.request('GET', path, { token: demo.personal_token, query: { status: 'lost' } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(errorEnvelope('errors.qc.deliveries.unknown_status'));
    }
    for (const status of ['pending', 'delivering', 'delivered', 'failed', 'dead']) {
      const res = await t.request('GET', '/v1/qc/deliveries', { token: demo.personal_token, query: { status } });
      expect(res.status).toBe(200);
    }
  });
});
