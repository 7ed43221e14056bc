import { ownedListRoute } from '../config-surfaces/owned-routes.ts';
import { ExtraServiceSchema } from './model.ts';
import { extraServiceView } from './view.ts';

export const listExtraServices = ownedListRoute({
  name: 'qc.extra_services.list',
  path: '/properties/:property/extra_services',
  resource: 'extra_service',
  table: 'extra_services',
  summary: 'Extra services of a property, oldest first',
  schema: ExtraServiceSchema,
  view: extraServiceView,
});
