import { reportOperation } from './report-operation.ts';

export const trafficAnalytics = reportOperation(
  'traffic',
  'Where bookings come from: direct, metasearch, agency, OTA',
  'Bookings received in the range by acquisition source (direct: booking engine QDO and dashboard QDB; metasearch: GHA; agency: QDA; ota: the rest) with their share and revenue. `sessions`: the upstream’s visits; the built-in provider holds none (null).',
);
