import { t } from 'elysia';
import { configOperation } from '../config-surfaces/operation.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { SpecialOfferSchema, UpdateSpecialOfferBody } from './model.ts';
import { pathOffer } from './path-offer.ts';
import { updateSpecialOffer } from './service.ts';
import { specialOfferView } from './view.ts';

export const updateSpecialOfferRoute = defineRoute({
  ...configOperation(
    'qc.special_offers.update',
    'PATCH',
    '/special_offers/:offer',
    'special_offer',
    'Change a special offer (partial)',
  ),
  description:
    'Only the fields present change; `sfp` merges field by field (an omitted field keeps its stored value, null clears it: no bound); the merged offer follows the create rules and nothing is written when it fails. Event `special_offer.updated` when the record changed (a PATCH that changes nothing writes nothing). Renamed without `name_tr`, a `name_tr` filled in from the old name (`{"en-GB": <old name>}`) follows the new name; one you set is kept.',
  params: t.Object({ offer: t.String() }),
  body: UpdateSpecialOfferBody,
  response: okSchema(SpecialOfferSchema),
  errors: ['errors.qc.sfp_min_gt_max_nights'],
  pathRecord: pathOffer,
  async handle({ deps, principal, params, body }) {
    const now = deps.clock.now();
    const row = await deps.db.tx((tx) => updateSpecialOffer(tx, principal, params.offer, body, now));
    return ok(specialOfferView(row));
  },
});
