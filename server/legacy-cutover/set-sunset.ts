import { t } from 'elysia';
import { DayText } from '../core/http/day-schema.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import type { LegacyCutoverParts } from './legacy-cutover.ts';
import { setSunset } from './sunset.ts';

/**
 * PUT /ops/legacy/sunset `{date, endpoints?}`: the legacy facade's (or some methods') shutdown date; from now on
 * the affected answers carry `Sunset` and `Link`. 422 before 2027-08-01 or under 6 months away. Made with the
 * process's cutover parts, whose sunset cache it clears.
 */
export const setSunsetRoute = (cutover: Pick<LegacyCutoverParts, 'sunset'>) =>
  defineOperatorRoute({
    name: 'ops.legacy.sunset',
    surface: 'ops',
    method: 'PUT',
    path: '/legacy/sunset',
    summary: 'Set the legacy facade sunset date',
    body: t.Object({
      date: DayText,
      // An empty list is refused, not read as "absent": it would announce (and switch off) the whole facade.
      endpoints: t.Optional(t.Array(t.String({ minLength: 1 }), { minItems: 1, maxItems: 50 })),
    }),
    async handle({ deps, body }) {
      const setting = await setSunset(deps, cutover.sunset, body);
      return ok({ date: setting.date, endpoints: setting.endpoints, set_at: setting.setAt.toISOString() });
    },
  });
