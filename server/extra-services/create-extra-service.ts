import { ownedCreateRoute } from '../config-surfaces/owned-routes.ts';
import { CreateExtraServiceBody, ExtraServiceSchema, PRICE_TYPE_MEANINGS } from './model.ts';
import { createExtraService } from './service.ts';
import { extraServiceView } from './view.ts';

export const createExtraServiceRoute = ownedCreateRoute({
  name: 'qc.extra_services.create',
  path: '/properties/:property/extra_services',
  resource: 'extra_service',
  summary: 'Create an extra service',
  description:
    '`name` or a `name_tr` value must be non-empty (422 on `name`). `price_type`: ' +
    `${PRICE_TYPE_MEANINGS}; with \`is_daily\` the price is also per night (per selected day). \`client_select_dates_settings.type\`: '0' every day of the stay, '1' the guest picks one day, '2' the guest picks a range of \`min_days\`..\`max_days\` (both required, min <= max; other types answer them null). \`active_week_days\` default all seven, answered Monday first. \`do_not_apply_promotions\`: promotions and special offers never discount it. Listed in legacy getPropertySettings \`services\`. Event \`extra_service.created\`.`,
  body: CreateExtraServiceBody,
  schema: ExtraServiceSchema,
  create: createExtraService,
  view: extraServiceView,
});
