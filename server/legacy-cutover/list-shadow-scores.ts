import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { ok } from '../core/http/envelope.ts';
import type { OpsApp } from './ops-app.ts';
import { shadowScores } from './shadow-scores.ts';

const Day = t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** GET /ops/legacy-keys/{id}/shadow-scores?from=&to=: the daily shadow-difference score, zero streak, samples. */
export const listShadowScores = (app: OpsApp, deps: Deps) =>
  app.get(
    '/legacy-keys/:id/shadow-scores',
    async ({ params, query }) => ok(await shadowScores(deps, params.id, query)),
    {
      params: t.Object({ id: t.Numeric() }),
      query: t.Object({ from: t.Optional(Day), to: t.Optional(Day) }),
      detail: { summary: "A legacy key's shadow-difference score per UTC day" },
    },
  );
