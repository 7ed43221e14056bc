import { describe, expect, it } from 'bun:test';
import { templateBody } from '../auto-email-templates/test-fixtures.ts';
import { call, configTest, EARLY_BOOKER_PROMOTION, eventsOf } from './test-fixtures.ts';

const c = configTest();

/**
 * The event catalogue says `<entity>.updated` means the record changed (spec 6.3: a policy's body changed). A
 * PATCH that sends the values already stored (a retry without Idempotency-Key, a partner re-pushing its
 * configuration) changes nothing: it writes nothing, records no event and keeps `updated_at`. A PUT that replaces
 * a set (amenities, the guest guide) with the set stored is the same: no event, and the guide keeps its item ids.
 */
describe('PATCH that changes nothing', () => {
  it('records no .updated event and keeps updated_at, for every owned configuration entity', async () => {
    const property = `/properties/${c.property}`;
    const button = (await call(c, 'GET', `${property}/booking_buttons`)).body.data.booking_buttons[0].id;
    const booking = (c.demo.bookings as { external_booking_id: string }[])[2]?.external_booking_id;
    const entities = [
      {
        event: 'payment_policy.updated',
        create: [`${property}/payment_policies`, { name: 'Deposit', pay_type: 'be_arr', num_days: 3, percent: 30 }],
        record: (id: string) => `${property}/payment_policies/${id}`,
        same: { name: 'Deposit', num_days: 3 },
        change: { percent: 40 },
      },
      {
        event: 'cancellation_policy.updated',
        create: [
          `${property}/cancellation_policies`,
          { name: 'Strict', data: [{ c_type: 'after_booking', p_type: 'percent', p_value: 100 }] },
        ],
        record: (id: string) => `${property}/cancellation_policies/${id}`,
        same: { data: [{ c_type: 'after_booking', p_type: 'percent', p_value: 100 }] },
        change: { name: 'Stricter' },
      },
      {
        event: 'extra_service.updated',
        create: [`${property}/extra_services`, { name: 'Parking', price: 12.5, price_type: 1 }],
        record: (id: string) => `${property}/extra_services/${id}`,
        same: { price: 12.5, active_week_days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
        change: { price: 13 },
      },
      {
        event: 'promotion.updated',
        create: [`${property}/promotions`, EARLY_BOOKER_PROMOTION],
        record: (id: string) => `${property}/promotions/${id}`,
        same: { discount_value: 10, rate_plan_ids: [] },
        change: { discount_value: 12 },
      },
      {
        event: 'special_offer.updated',
        create: [
          `/booking_buttons/${button}/special_offers`,
          {
            name: 'Week',
            active_from_date: '2030-01-01',
            active_to_date: '2030-02-01',
            rate_plans_ids: ['BAR'],
            discount_percent: 15,
          },
        ],
        record: (id: string) => `/special_offers/${id}`,
        same: { rate_plans_ids: ['BAR'], sfp: { min_nights: null } },
        change: { discount_percent: 20 },
      },
      {
        event: 'room_type.updated',
        create: [`${property}/room_types`, { name: 'Loft', partner_code: 'LOFT' }],
        record: (id: string) => `${property}/room_types/${id}`,
        same: { partner_code: 'LOFT', partner_name: null },
        change: { partner_name: 'Loft room' },
      },
      {
        event: 'content_page.updated',
        create: [`${property}/content_pages`, { slug: 'spa', title: 'Spa', title_tr: { 'de-DE': 'Spa' } }],
        record: (id: string) => `${property}/content_pages/${id}`,
        same: { slug: 'spa', title_tr: { 'de-DE': 'Spa' }, image_ids: [] },
        change: { position: 3 },
      },
      {
        event: 'guest_feedback.updated',
        create: [
          `${property}/guest_feedback`,
          { booking_id: booking, overall_score: 8, scores: { staff: 9 }, answered_at: '2026-06-20T10:00:00.000Z' },
        ],
        record: (id: string) => `${property}/guest_feedback/${id}`,
        same: { overall_score: 8, scores: { staff: 9 }, language: null },
        change: { comment: 'Quiet room.' },
      },
      {
        event: 'auto_email_template.updated',
        create: ['/auto_email_templates', templateBody(c.demo)],
        record: (id: string) => `/auto_email_templates/${id}`,
        same: { pem_system_set: ['QDO', 'BDC'], property_ids: [c.property], to: '{guest_email}' },
        change: { title: 'Confirmation' },
      },
    ] as const;
    for (const entity of entities) {
      const created = await call(c, 'POST', entity.create[0], entity.create[1]);
      expect(created.status).toBe(201);
      const path = entity.record(created.body.data.id);
      // A write from now on would stamp a later updated_at.
      c.t.clock.advance(60_000);
      const before = (await eventsOf(c, entity.event)).length;
      for (const body of [{}, entity.same]) {
        const res = await call(c, 'PATCH', path, body);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual(created.body.data);
      }
      expect((await eventsOf(c, entity.event)).length).toBe(before);
      const changed = await call(c, 'PATCH', path, entity.change);
      expect(changed.body.data).toMatchObject(entity.change);
      // A room type's answer has no updated_at; its event count above and below pins it.
      if (created.body.data.updated_at !== undefined)
        expect(changed.body.data.updated_at).not.toBe(created.body.data.updated_at);
      expect((await eventsOf(c, entity.event)).length).toBe(before + 1);
    }
  });

  it('records no .updated event for a PUT of the amenities or guest guide already stored', async () => {
    const property = `/properties/${c.property}`;
    const room = (await call(c, 'GET', `${property}/room_types`)).body.data.room_types[0].id;
    const replacements = [
      {
        event: 'amenities.updated',
        path: `${property}/amenities`,
        body: { amenities: [{ id: 'HAC.68', options: { charge: 'paid', location: 'on_site' } }, { id: 'HAC.79' }] },
        // The same set in another order, options too.
        same: { amenities: [{ id: 'HAC.79' }, { id: 'HAC.68', options: { location: 'on_site', charge: 'paid' } }] },
        change: { amenities: [{ id: 'HAC.79' }] },
      },
      {
        event: 'amenities.updated',
        path: `${property}/room_types/${room}/amenities`,
        body: { amenities: [{ id: 'RMA.123', options: { charge: 'free' } }] },
        same: { amenities: [{ id: 'RMA.123', options: { charge: 'free' } }] },
        change: { amenities: [] },
      },
      {
        event: 'guest_guide.updated',
        path: `${property}/guest_guide`,
        body: {
          items: [
            { kind: 'text', title: 'Welcome', text: { 'en-GB': 'Hello.' } },
            { kind: 'page', title: 'Rules', content_page_id: 'house-rules' },
            { kind: 'link', title: 'Town', url: 'https://example.com/town' },
          ],
        },
        same: {
          items: [
            { kind: 'text', title: 'Welcome', text: { 'en-GB': 'Hello.' }, title_tr: {} },
            { kind: 'page', title: 'Rules', content_page_id: 'house-rules' },
            { kind: 'link', title: 'Town', url: 'https://example.com/town' },
          ],
        },
        change: { items: [{ kind: 'text', title: 'Welcome', text: { 'en-GB': 'Hi.' } }] },
      },
    ];
    for (const entity of replacements) {
      const first = await call(c, 'PUT', entity.path, entity.body);
      expect(first.status).toBe(200);
      const before = (await eventsOf(c, entity.event)).length;
      for (const body of [entity.body, entity.same]) {
        const res = await call(c, 'PUT', entity.path, body);
        expect(res.status).toBe(200);
        // The guide's items keep their ids: nothing was rewritten.
        expect(res.body.data).toEqual(first.body.data);
      }
      expect((await eventsOf(c, entity.event)).length).toBe(before);
      expect((await call(c, 'PUT', entity.path, entity.change)).status).toBe(200);
      expect((await eventsOf(c, entity.event)).length).toBe(before + 1);
    }
  });
});
