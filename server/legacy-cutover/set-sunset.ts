import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { LegacyCutoverParts } from './legacy-cutover.ts';
import type { OpsApp } from './ops-app.ts';
import { setSunset } from './sunset.ts';

/**
 * PUT /ops/legacy/sunset `{date, endpoints?}`: the legacy facade's (or some methods') shutdown date; from now on
 * the affected answers carry `Sunset` and `Link`. 422 before 2027-08-01 or under 6 months away.
 */
export const setSunsetRoute = (app: OpsApp, deps: Deps, cutover: LegacyCutoverParts) =>
  app.put(
    '/legacy/sunset',
    async ({ body }) => {
      const setting = await setSunset(deps, cutover.sunset, body);
      return ok({ date: setting.date, endpoints: setting.endpoints, set_at: setting.setAt.toISOString() });
    },
    {
      body: t.Object({
        date: t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
        endpoints: t.Optional(t.Array(t.String({ minLength: 1 }), { maxItems: 50 })),
      }),
      detail: { summary: 'Set the legacy facade sunset date' },
    },
  );
