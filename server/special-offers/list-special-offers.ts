import { t } from 'elysia';
import { resolveBookingButton } from '../booking-buttons/store.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { SpecialOfferSchema } from './model.ts';
import { listSpecialOffers } from './service.ts';
import { specialOfferView } from './view.ts';

export const listSpecialOffersRoute = defineRoute({
  ...configOperation(
    'qc.special_offers.list',
    'GET',
    '/booking_buttons/:button/special_offers',
    'special_offer',
    'Special offers of a booking button',
  ),
  description: 'Every offer of the button (active or not), oldest first, in one page.',
  params: t.Object({ button: t.String() }),
  response: okSchema(t.Object({ special_offers: t.Array(SpecialOfferSchema), meta: MetaSchema })),
  async handle({ deps, principal, params }) {
    const { button } = await resolveBookingButton(deps.db, principal, params.button);
    const offers = await listSpecialOffers(deps.db, button);
    return ok({
      special_offers: offers.map(specialOfferView),
      meta: pageMeta(offers.length, 1, Math.max(1, offers.length)),
    });
  },
});
