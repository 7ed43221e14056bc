import { ownedUpdateRoute } from '../config-surfaces/owned-routes.ts';
import { PromotionSchema, UpdatePromotionBody } from './model.ts';
import { updatePromotion } from './service.ts';
import { promotionView } from './view.ts';

export const updatePromotionRoute = ownedUpdateRoute({
  name: 'qc.promotions.update',
  path: '/properties/:property/promotions',
  table: 'promotions',
  param: 'promotion',
  resource: 'promotion',
  summary: 'Change a promotion (partial)',
  description:
    'Only the fields present change; the merged promotion follows the create rules (each failure a 422 on its field) and nothing is written when it fails. Event `promotion.updated` when the record changed (a PATCH that changes nothing writes nothing). Renamed without `name_tr`, a `name_tr` filled in from the old name (`{"en-GB": <old name>}`) follows the new name; one you set is kept.',
  body: UpdatePromotionBody,
  schema: PromotionSchema,
  update: updatePromotion,
  view: promotionView,
});
