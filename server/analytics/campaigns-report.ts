import { reportOperation } from './report-operation.ts';

export const campaignsAnalytics = reportOperation(
  'campaigns',
  'Bookings attributed to paid acquisition: search ads and agencies',
  'Bookings received in the range through the search-advertising channel (`search_ads`) and per agency (`agency:<name>`), with room nights and revenue. Clicks and cost are the upstream analytics’ (null from the built-in provider).',
);
