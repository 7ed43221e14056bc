import type { CalendarCounters } from '../../actors/calendar-push.ts';
import type { PushWarning } from './warnings.ts';

/** The 202 `data` of the three inventory pushes (spec 4.4). */
export interface PushAnswer extends CalendarCounters {
  warnings: PushWarning[];
}
