import { ownedShowRoute } from '../config-surfaces/owned-routes.ts';
import { ExtraServiceSchema } from './model.ts';
import { extraServiceView } from './view.ts';

export const showExtraService = ownedShowRoute({
  name: 'qc.extra_services.show',
  path: '/properties/:property/extra_services',
  param: 'service',
  resource: 'extra_service',
  table: 'extra_services',
  summary: 'One extra service',
  schema: ExtraServiceSchema,
  view: extraServiceView,
});
