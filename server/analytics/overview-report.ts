import { reportOperation } from './report-operation.ts';

export const overviewAnalytics = reportOperation(
  'overview',
  'Occupancy, ADR, RevPAR and revenue for the stay nights of a range',
  'Stay nights from..to: `room_nights_available` (units of live room types times nights), `room_nights_sold` (booked units times their nights inside the range, tentative to checked-out bookings), `occupancy`, `room_revenue` (each line price spread evenly over its nights), `adr`, `revpar`; and bookings received and cancelled in the range.',
);
