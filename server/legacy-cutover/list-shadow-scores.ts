import { t } from 'elysia';
import { DayText } from '../core/http/day-schema.ts';
import { ok } from '../core/http/envelope.ts';
import { pathInteger } from '../core/http/named-integer.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { shadowScores } from './shadow-scores.ts';

/** GET /ops/legacy-keys/{id}/shadow-scores?from=&to=: the daily shadow-difference score, zero streak, samples. */
export const listShadowScores = defineOperatorRoute({
  name: 'ops.legacy_keys.shadow_scores',
  surface: 'ops',
  method: 'GET',
  path: '/legacy-keys/:id/shadow-scores',
  summary: "A legacy key's shadow-difference score per UTC day",
  params: t.Object({ id: pathInteger('id', 1, Number.MAX_SAFE_INTEGER, "The legacy key's id") }),
  query: t.Object({ from: t.Optional(DayText), to: t.Optional(DayText) }),
  async handle({ deps, params, query }) {
    return ok(await shadowScores(deps, params.id, query));
  },
});
