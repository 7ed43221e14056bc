import { ownedUpdateRoute } from '../config-surfaces/owned-routes.ts';
import { ExtraServiceSchema, UpdateExtraServiceBody } from './model.ts';
import { updateExtraService } from './service.ts';
import { extraServiceView } from './view.ts';

export const updateExtraServiceRoute = ownedUpdateRoute({
  name: 'qc.extra_services.update',
  path: '/properties/:property/extra_services',
  table: 'extra_services',
  param: 'service',
  resource: 'extra_service',
  summary: 'Change an extra service (partial)',
  description:
    'Only the fields present change; `client_select_dates_settings` merges field by field (an omitted field keeps its stored value); the merged service follows the create rules and nothing is written when it fails. Event `extra_service.updated` when the record changed (a PATCH that changes nothing writes nothing). Renamed without `name_tr`, a `name_tr` filled in from the old name (`{"en-GB": <old name>}`) follows the new name; one you set is kept.',
  body: UpdateExtraServiceBody,
  schema: ExtraServiceSchema,
  update: updateExtraService,
  view: extraServiceView,
});
