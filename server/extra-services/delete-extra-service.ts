import { ownedDeleteRoute } from '../config-surfaces/owned-routes.ts';
import { deleteExtraService } from './service.ts';

export const deleteExtraServiceRoute = ownedDeleteRoute({
  name: 'qc.extra_services.delete',
  path: '/properties/:property/extra_services',
  table: 'extra_services',
  param: 'service',
  resource: 'extra_service',
  summary: 'Delete an extra service',
  description: 'Bookings that already carry the service keep it. Event `extra_service.deleted`.',
  remove: deleteExtraService,
});
