import { reportOperation } from './report-operation.ts';

export const bookingsAnalytics = reportOperation(
  'bookings',
  'Bookings received, by channel and status',
  'Bookings received in the range (the property’s local day): counts, room nights (units times nights) and revenue (booking totals in the property’s currency), in total, `by_channel` and `by_status`.',
);
