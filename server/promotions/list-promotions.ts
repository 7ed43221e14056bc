import { ownedListRoute } from '../config-surfaces/owned-routes.ts';
import { PromotionSchema } from './model.ts';
import { promotionView } from './view.ts';

export const listPromotions = ownedListRoute({
  name: 'qc.promotions.list',
  path: '/properties/:property/promotions',
  resource: 'promotion',
  table: 'promotions',
  summary: 'Promotions of a property, oldest first',
  schema: PromotionSchema,
  view: promotionView,
});
