import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { templateBody } from './test-fixtures.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());
const other = perFile(() => t.demo());

const post = (token: string, body: unknown) => t.request('POST', '/v1/qc/auto_email_templates', { token, body });

describe('auto-email template refusals', () => {
  it('refuses a property outside the grant with 422 property_id_not_granted_to_client, by id or partner code', async () => {
    for (const foreign of [other.properties[0]?.id, other.properties[0]?.partner_code, 'NO-SUCH-CODE']) {
      const res = await post(demo.personal_token, templateBody(demo, { property_ids: [foreign] }));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ message: 'errors.qc.property_id_not_granted_to_client', property_id: foreign });
    }
    const narrow = await t.client({
      customer_id: demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [demo.properties[0]?.id as string],
    });
    const sibling = await post(narrow.token, templateBody(demo, { property_ids: [demo.properties[1]?.id] }));
    expect(sibling.status).toBe(422);
    expect(sibling.body.message).toBe('errors.qc.property_id_not_granted_to_client');
  });

  it('refuses one property named by its external id and by its partner code, on POST and PATCH, storing nothing', async () => {
    const property = demo.properties[0];
    const twice = [property?.id, property?.partner_code];
    const before = (await t.request('GET', '/v1/qc/auto_email_templates', { token: demo.personal_token })).body.data;
    const res = await post(demo.personal_token, templateBody(demo, { property_ids: twice }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ property_ids: ['customer.auto_email_template.messages.unique'] });
    const [template] = before.auto_email_templates;
    const patched = await t.request('PATCH', `/v1/qc/auto_email_templates/${template.id}`, {
      token: demo.personal_token,
      body: { property_ids: twice },
    });
    expect(patched.body.errors).toEqual({ property_ids: ['customer.auto_email_template.messages.unique'] });
    const after = (await t.request('GET', '/v1/qc/auto_email_templates', { token: demo.personal_token })).body.data;
    expect(after).toEqual(before);
  });

  it('refuses placeholders the event does not fill, per field and locale, and a malformed to', async () => {
    const res = await post(
      demo.personal_token,
      templateBody(demo, {
        subject: { 'en-GB': 'Hi {guest_first_name}', 'fr-FR': 'Annulé: {cancellation_fee}' },
        body_html: { 'en-GB': '<p>{room_number}</p>' },
        to: 'front desk',
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'subject.fr-FR': ['customer.auto_email_template.messages.unknown_placeholder'],
      'body_html.en-GB': ['customer.auto_email_template.messages.unknown_placeholder'],
      to: ['customer.auto_email_template.messages.format'],
    });
    const cancelled = await post(
      demo.personal_token,
      templateBody(demo, { event: 'booking.cancelled', subject: { 'fr-FR': 'Annulé: {cancellation_fee}' } }),
    );
    expect(cancelled.status).toBe(201);
    const narrowed = await t.request('PATCH', `/v1/qc/auto_email_templates/${cancelled.body.data.id}`, {
      token: demo.personal_token,
      body: { event: 'booking.created' },
    });
    expect(narrowed.status).toBe(422);
    expect(Object.keys(narrowed.body.errors)).toEqual(['subject.fr-FR']);
  });

  it('refuses an unknown event and an unknown source channel', async () => {
    const res = await post(demo.personal_token, templateBody(demo, { event: 'booking.paid', pem_system_set: ['XYZ'] }));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['event', 'pem_system_set.0']);
  });
});

describe('auto-email templates across customers and grants', () => {
  it("answers 404 for another customer's template and hides templates targeting properties outside the grant", async () => {
    const theirs = await post(other.personal_token, templateBody(other));
    const path = `/v1/qc/auto_email_templates/${theirs.body.data.id}`;
    expect((await t.request('GET', path, { token: demo.personal_token })).status).toBe(404);
    expect((await t.request('DELETE', path, { token: demo.personal_token })).status).toBe(404);
    const both = await post(
      demo.personal_token,
      templateBody(demo, { property_ids: [demo.properties[0]?.id, demo.properties[1]?.id] }),
    );
    const narrow = await t.client({
      customer_id: demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [demo.properties[0]?.id as string],
    });
    const hidden = await t.request('GET', `/v1/qc/auto_email_templates/${both.body.data.id}`, { token: narrow.token });
    expect(hidden.status).toBe(404);
    const list = await t.request('GET', '/v1/qc/auto_email_templates', { token: narrow.token });
    expect(list.body.data.auto_email_templates.map((x: { id: string }) => x.id)).not.toContain(both.body.data.id);
  });
});

describe('localized fields', () => {
  it('refuses a subject key that is not a locale tag', async () => {
    const res = await post(demo.personal_token, templateBody(demo, { subject: { english: 'Hi' } }));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['subject.english']);
  });
});
