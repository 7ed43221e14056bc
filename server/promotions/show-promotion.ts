import { ownedShowRoute } from '../config-surfaces/owned-routes.ts';
import { PromotionSchema } from './model.ts';
import { promotionView } from './view.ts';

export const showPromotion = ownedShowRoute({
  name: 'qc.promotions.show',
  path: '/properties/:property/promotions',
  param: 'promotion',
  resource: 'promotion',
  table: 'promotions',
  summary: 'One promotion',
  schema: PromotionSchema,
  view: promotionView,
});
