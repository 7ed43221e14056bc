import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { givenReview } from './test-fixtures.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());
const other = perFile(() => t.demo());

describe('reviews across customers, allow-lists and scopes', () => {
  it("answers 404 for another customer's review, under its property and under the caller's", async () => {
    const theirs = await givenReview(t, other, 'BDC');
    const underTheirs = `/v1/qc/properties/${other.properties[0]?.id}/reviews/${theirs}`;
    const underMine = `/v1/qc/properties/${demo.properties[0]?.id}/reviews/${theirs}`;
    expect((await t.request('GET', underTheirs, { token: demo.personal_token })).status).toBe(404);
    expect((await t.request('GET', underMine, { token: demo.personal_token })).status).toBe(404);
    const res = await t.request('POST', `${underMine}/reply`, { token: demo.personal_token, body: { text: 'x' } });
    expect(res.status).toBe(404);
  });

  it('answers 404 for a property outside the token allow-list and 403 without properties.manage', async () => {
    const narrow = await t.client({
      customer_id: demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [demo.properties[1]?.id as string],
    });
    const list = `/v1/qc/properties/${demo.properties[0]?.id}/reviews`;
    expect((await t.request('GET', list, { token: narrow.token })).status).toBe(404);
    const reader = await t.client({ customer_id: demo.customer_id, scopes: ['bookings.read'], account_scoped: true });
    const refused = await t.request('GET', list, { token: reader.token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('errors.qc.insufficient_scope');
  });
});
