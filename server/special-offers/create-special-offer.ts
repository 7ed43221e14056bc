import { t } from 'elysia';
import { pathButton } from '../booking-buttons/path-button.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CreateSpecialOfferBody, SpecialOfferSchema } from './model.ts';
import { createSpecialOffer } from './service.ts';
import { specialOfferView } from './view.ts';

export const createSpecialOfferRoute = defineRoute({
  ...configOperation(
    'qc.special_offers.create',
    'POST',
    '/booking_buttons/:button/special_offers',
    'special_offer',
    'Create a special offer on a booking button',
  ),
  description:
    "A discount (`discount_percent` of each night) shown through this button. It fits a stay when every night lies within `active_from_date`..`active_to_date`, the stay length within `sfp.min_nights`..`sfp.max_nights` (either may be null: no bound) and the rate plan is one of `rate_plans_ids` (non-empty, plans of the button's property: 422 `rate_plans_ids.N` otherwise). `sfp.min_nights` > `sfp.max_nights` is 422 `errors.qc.sfp_min_gt_max_nights`. Legacy getBookingOffers with this button's `bm_code` applies a fitting offer to the pair's price (the single best discount among promotions and offers wins). Event `special_offer.created`.",
  status: 201,
  params: t.Object({ button: t.String() }),
  body: CreateSpecialOfferBody,
  response: okSchema(SpecialOfferSchema),
  errors: ['errors.qc.sfp_min_gt_max_nights'],
  pathRecord: pathButton,
  async handle({ deps, body, request }, { button, property }) {
    const now = deps.clock.now();
    const kept = keptCreate(request, now);
    return deps.db.tx(async (tx) => {
      const answer = ok(specialOfferView(await createSpecialOffer(tx, button, property, body, now)));
      await kept.keep(tx, 201, answer);
      return answer;
    });
  },
});
