import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import type { LegacyCutoverParts } from './legacy-cutover.ts';
import { withdrawSunset } from './sunset.ts';

/**
 * DELETE /ops/legacy/sunset: withdraws the sunset (a date set by mistake, or a shutdown called off). Answers carry
 * no Sunset header from then on and nothing is switched off; 404 when none is set. Made with the process's cutover
 * parts, whose sunset cache it clears (other processes follow within the cache's few seconds).
 */
export const withdrawSunsetRoute = (cutover: Pick<LegacyCutoverParts, 'sunset'>) =>
  defineOperatorRoute({
    name: 'ops.legacy.sunset_withdraw',
    surface: 'ops',
    method: 'DELETE',
    path: '/legacy/sunset',
    summary: 'Withdraw the legacy facade sunset',
    async handle({ deps }) {
      if (!(await withdrawSunset(deps, cutover.sunset))) throw notFound();
      return ok({ withdrawn: true });
    },
  });
