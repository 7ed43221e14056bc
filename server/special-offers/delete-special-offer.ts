import { t } from 'elysia';
import { DeletedSchema } from '../config-surfaces/model.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { pathOffer } from './path-offer.ts';
import { deleteSpecialOffer } from './service.ts';

export const deleteSpecialOfferRoute = defineRoute({
  ...configOperation(
    'qc.special_offers.delete',
    'DELETE',
    '/special_offers/:offer',
    'special_offer',
    'Delete a special offer',
  ),
  description: 'Quotes stop showing it at once. Event `special_offer.deleted`.',
  params: t.Object({ offer: t.String() }),
  body: EmptyBody,
  response: okSchema(DeletedSchema),
  pathRecord: pathOffer,
  async handle({ deps, principal, params }) {
    const now = deps.clock.now();
    const id = await deps.db.tx((tx) => deleteSpecialOffer(tx, principal, params.offer, now));
    return ok({ id, deleted: true as const });
  },
});
