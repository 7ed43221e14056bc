import { readAgeGroups } from '../age-groups/service.ts';
import type { BookingButtonRow } from '../booking-buttons/store.ts';
import { createCancellationPolicy } from '../cancellation-policies/service.ts';
import { addDays, localToday } from '../core/days.ts';
import { createExtraService } from '../extra-services/service.ts';
import { createPaymentPolicy } from '../payment-policies/service.ts';
import { createPromotion } from '../promotions/service.ts';
import { createSpecialOffer } from '../special-offers/service.ts';
import type { DemoContext } from './demo.ts';

/**
 * The configuration part of the demo (issue 14), on the live property after the structure and legacy
 * steps: one of each entity a partner manages there. The rate plans keep their placeholder policies (so
 * the demo also shows placeholders; they stay the oldest, so new plans keep taking them); the promotion is a
 * mobile one and the special offer wants a week or more, so the demo's short legacy quotes stay at their
 * calendar price. Age groups are the defaults every property has until it sets its own (no row). Output
 * under `demo.configuration`.
 */
export async function configurationDemoStep(ctx: DemoContext): Promise<void> {
  const { deps, live } = ctx;
  const now = deps.clock.now();
  const today = localToday(live.timezone, now);
  const out = await deps.db.tx(async (tx) => {
    const [button] = await tx.sql<BookingButtonRow>`
      select * from booking_buttons where property_id = ${live.id} and deleted_at is null order by id limit 1`;
    if (!button) throw new Error('configuration demo step needs the legacy step (a booking button) first');
    const payment = await createPaymentPolicy(
      tx,
      live,
      { name: 'Deposit 30% a week before arrival', pay_type: 'be_arr', num_days: 7, percent: 30 },
      now,
    );
    const cancellation = await createCancellationPolicy(
      tx,
      live,
      {
        name_tr: { 'en-GB': 'Flexible: free until 7 days before arrival', 'pt-PT': 'Flexível' },
        data: [
          { c_type: 'days_before_arrival', p_type: 'percent', p_days: 7, p_value: 50 },
          { c_type: 'days_before_arrival', p_type: 'nights', p_days: 1, p_value: 1 },
          { c_type: 'no_show', p_type: 'percent', p_value: 100 },
        ],
      },
      now,
    );
    const service = await createExtraService(
      tx,
      live,
      { name: 'Breakfast', name_tr: { 'pt-PT': 'Pequeno-almoço' }, is_daily: true, price: 12.5, price_type: 3 },
      now,
    );
    const promotion = await createPromotion(
      tx,
      live,
      { name: 'App bookers 10%', type: 'mobile', discount_type: 'percent', discount_value: 10 },
      now,
    );
    const offer = await createSpecialOffer(
      tx,
      button,
      live,
      {
        name: 'Stay a week, save 15%',
        active_from_date: today,
        active_to_date: addDays(today, 59),
        rate_plans_ids: ['BAR'],
        sfp: { min_nights: 7, max_nights: 30 },
        discount_percent: 15,
      },
      now,
    );
    return {
      payment_policy_id: payment.external_id,
      cancellation_policy_id: cancellation.external_id,
      extra_service_id: service.external_id,
      promotion_id: promotion.external_id,
      booking_button_id: button.external_id,
      special_offer_id: offer.external_id,
      age_groups: await readAgeGroups(tx, live.id),
    };
  });
  ctx.demo.configuration = out;
}
