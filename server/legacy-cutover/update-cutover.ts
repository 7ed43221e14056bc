import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { pathInteger } from '../core/http/named-integer.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { setCutover } from './cutover-setting.ts';

/**
 * PUT /ops/legacy-keys/{id}/cutover `{mode, upstream_url?, allow_private_upstream?, force?}`: shadow (the legacy
 * service answers, the port is compared) or live (the port answers, the legacy service is not called), from the
 * key's next request on. A new `upstream_url` follows the destination rules of ./upstream-url.ts; shadow to live
 * needs the zero streak of ./cutover-guard.ts or `force`.
 */
export const updateCutover = defineOperatorRoute({
  name: 'ops.legacy_keys.cutover',
  surface: 'ops',
  method: 'PUT',
  path: '/legacy-keys/:id/cutover',
  summary: 'Flip a legacy api key between shadow and live',
  description: [
    "From the key's next request on, on every process. A flip from shadow to live is refused with 409",
    '`errors.qc.cutover_not_ready` (`zero_streak_days`, `required_streak_days`, `last_difference` `{date, score}` or',
    "null, `has_comparisons`) while the key's zero streak is short of `QC_LEGACY_CUTOVER_STREAK_DAYS` (default 90,",
    'the shutdown rule of spec 9.4): once live, no comparison runs and a difference can no longer be seen.',
    '`"force": true` flips it anyway; the answer then carries `forced` (the same figures) and the flip is logged at',
    'warn (`legacy cutover forced`). Flips to shadow, live to live and keys created live are not checked.',
  ].join(' '),
  params: t.Object({ id: pathInteger('id', 1, Number.MAX_SAFE_INTEGER, "The legacy key's id") }),
  body: t.Object({
    mode: t.Union([t.Literal('shadow'), t.Literal('live')]),
    upstream_url: t.Optional(t.Nullable(t.String({ pattern: '^https?://' }))),
    /** The legacy service is on a private or loopback address, and the operator means it (./upstream-url.ts). */
    allow_private_upstream: t.Optional(t.Boolean()),
    /** Flip shadow to live although the zero streak is short (./cutover-guard.ts): logged at warn, answered. */
    force: t.Optional(t.Boolean()),
  }),
  async handle({ deps, params, body }) {
    return ok(await setCutover(deps, params.id, body));
  },
});
