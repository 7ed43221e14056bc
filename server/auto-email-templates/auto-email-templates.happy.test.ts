import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { templateBody } from './test-fixtures.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

const call = (method: string, path: string, body?: unknown) =>
  t.request(method, `/v1/qc/auto_email_templates${path}`, { token: demo.personal_token, body });

describe('auto-email templates', () => {
  it('creates with partner codes (answered as external ids), shows, lists, updates partially and deletes', async () => {
    const created = await call('POST', '', templateBody(demo));
    expect(created.status).toBe(201);
    const template = created.body.data;
    expect(template).toMatchObject({
      event: 'booking.created',
      is_active: true,
      property_ids: [demo.properties[0]?.id],
      pem_system_set: ['QDO', 'BDC'],
      to: '{guest_email}',
    });
    expect((await call('GET', `/${template.id}`)).body.data).toEqual(template);
    const list = await call('GET', '');
    expect(list.body.data.auto_email_templates.map((x: { id: string }) => x.id)).toContain(template.id);
    const patched = await call('PATCH', `/${template.id}`, {
      is_active: false,
      property_ids: [demo.properties[0]?.id, demo.properties[1]?.partner_code],
    });
    expect(patched.body.data).toMatchObject({
      is_active: false,
      title: 'Booking confirmation',
      property_ids: [demo.properties[0]?.id, demo.properties[1]?.id],
    });
    expect((await call('DELETE', `/${template.id}`)).body.data).toEqual({ id: template.id, deleted: true });
    expect((await call('GET', `/${template.id}`)).status).toBe(404);
  });

  it('previews a template for a sample booking in the asked locale, HTML-escaping values in the body', async () => {
    const created = await call(
      'POST',
      '',
      templateBody(demo, { body_html: { 'en-GB': '<p>{guest_first_name} &amp; {property_name}</p>' } }),
    );
    const preview = await call('GET', `/${created.body.data.id}/preview?locale=de-DE`);
    expect(preview.status).toBe(200);
    const name = demo.properties[0]?.name as string;
    expect(preview.body.data).toMatchObject({
      locale: 'en-GB',
      to: 'maria.sample@example.com',
      subject: `Ihr Aufenthalt im ${name}`,
      body_html: `<p>Maria &amp; ${name}</p>`,
    });
    expect(preview.body.data.sample.checkin_date).toBe('2026-07-12');
  });

  it('lists the events with their placeholders', async () => {
    const res = await call('GET', '/events');
    const cancelled = res.body.data.events.find((e: { event: string }) => e.event === 'booking.cancelled');
    expect(cancelled.placeholders).toContain('cancellation_fee');
  });
});
