import { reportOperation } from './report-operation.ts';

export const paceAnalytics = reportOperation(
  'pace',
  'On the books per stay date, against the same point last year',
  'For each stay date: room nights and revenue on the books now, and for the same date a year earlier as they stood at this instant a year ago (a booking counts when received by then and not cancelled by then).',
);
