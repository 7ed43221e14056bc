import { t } from 'elysia';
import { pathButton } from '../booking-buttons/path-button.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { MetaSchema, ok, okSchema } from '../core/http/envelope.ts';
import { PagingQuery, pageOfItems } from '../core/http/paging.ts';
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
  description: 'Every offer of the button (active or not), oldest first, paged like every list.',
  params: t.Object({ button: t.String() }),
  query: PagingQuery,
  response: okSchema(t.Object({ special_offers: t.Array(SpecialOfferSchema), meta: MetaSchema })),
  pathRecord: pathButton,
  async handle({ deps, query }, { button }) {
    // A button holds a handful of offers: read them all and page in memory, by the one rule.
    const { items, meta } = pageOfItems(await listSpecialOffers(deps.db, button), query);
    return ok({ special_offers: items.map(specialOfferView), meta });
  },
});
