import { reportOperation } from './report-operation.ts';

export const funnelAnalytics = reportOperation(
  'funnel',
  'From booking to stay: confirmed, stayed, cancelled, no-show',
  'Of the bookings received in the range: `created`, `confirmed` (confirmed or later), `stayed` (checked out, or confirmed with the check-out day passed), `cancelled`, `no_show`, and the rates against `created`. `searches`: the upstream’s booking-engine searches; the built-in provider holds none (null).',
);
