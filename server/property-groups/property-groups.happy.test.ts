import { describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';

/**
 * Issue 28 item 2: `groups.manage` guarded nothing on the partner API (groups existed only under /ops). A partner
 * with an account-scoped credential now reads and manages its property groups and pauses one.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());
const call = (method: string, path: string, body?: unknown, token = demo.personal_token) =>
  t.request(method, `/v1/qc${path}`, { token, body });

describe('property groups on the partner API (scope groups.manage)', () => {
  it('creates a group with members, lists and shows it, and a PATCH pause takes its properties out at once', async () => {
    const [live, shadow] = demo.properties;
    const created = await call('POST', '/property-groups', {
      name: 'Coast',
      property_ids: [live?.partner_code, shadow?.id],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Coast', paused: false, property_ids: [live?.id, shadow?.id] });
    const group = created.body.data.id as string;

    const listed = await call('GET', '/property-groups');
    expect(listed.body.data.property_groups.map((g: { id: string }) => g.id)).toContain(group);
    expect(listed.body.data.meta.per_page).toBe(200);
    expect((await call('GET', `/property-groups/${group}`)).body.data).toEqual(created.body.data);

    const paused = await call('PATCH', `/property-groups/${group}`, { paused: true });
    expect(paused.status).toBe(200);
    expect(paused.body.data.paused).toBe(true);
    // The account-scoped demo token no longer sees the group's properties; the group itself stays manageable.
    expect((await call('GET', '/properties')).body.data.properties).toEqual([]);
    expect((await call('GET', `/properties/${live?.id}`)).status).toBe(404);
    const resumed = await call('PATCH', `/property-groups/${group}`, { paused: false, name: 'Coast and hills' });
    expect(resumed.body.data).toMatchObject({ paused: false, name: 'Coast and hills' });
    expect((await call('GET', '/properties')).body.data.properties).toHaveLength(2);

    const narrowed = await call('PATCH', `/property-groups/${group}`, { property_ids: [live?.id] });
    expect(narrowed.body.data.property_ids).toEqual([live?.id]);
  });

  it('refuses a credential without groups.manage, one narrowed to some properties, and properties of no account', async () => {
    const [live] = demo.properties;
    const noScope = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], property_ids: [] });
    expect((await call('GET', '/property-groups', undefined, noScope.token)).status).toBe(403);
    const fixed = await t.client({
      customer_id: demo.customer_id,
      scopes: ['groups.manage'],
      property_ids: [live?.id as string],
    });
    const refused = await call('GET', '/property-groups', undefined, fixed.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(errorEnvelope('errors.qc.account_scoped_credential_required'));
    const unknown = await call('POST', '/property-groups', { name: 'Nowhere', property_ids: ['NO-SUCH-CODE'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ 'property_ids.0': ['customer.property_group.messages.in'] });
    const other = await t.demo();
    const theirs = await call('POST', '/property-groups', { name: 'Theirs', property_ids: [other.properties[0]?.id] });
    expect(theirs.status).toBe(422);
    expect((await call('GET', '/property-groups/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
