import { ownedDeleteRoute } from '../config-surfaces/owned-routes.ts';
import { deletePromotion } from './service.ts';

export const deletePromotionRoute = ownedDeleteRoute({
  name: 'qc.promotions.delete',
  path: '/properties/:property/promotions',
  table: 'promotions',
  param: 'promotion',
  resource: 'promotion',
  summary: 'Delete a promotion',
  description: 'Quotes stop applying it at once; bookings already made keep their price. Event `promotion.deleted`.',
  remove: deletePromotion,
});
