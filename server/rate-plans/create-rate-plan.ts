import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { CreateRatePlanBody, PLAN_DOC, RatePlanSchema, VOCABULARY_DOC } from './model.ts';
import { addRatePlan } from './plan-writes.ts';
import { PLACEHOLDER_PREFIX } from './policies.ts';

export const createRatePlan = defineRoute({
  name: 'qc.rate_plans.create',
  method: 'POST',
  path: '/properties/:property/rate_plans',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'rate_plan',
  summary: 'Create a rate plan',
  tags: ['rate plans'],
  description: [
    'Creates the plan and one pair per room type in one transaction and answers 201 with the plan as GET',
    `one shows it (the entries of \`rate_plans[]\` echo \`parent_rate_plan_id\`). ${PLAN_DOC} ${VOCABULARY_DOC}`,
    '`room_type_ids` take external ids or partner codes (unknown: 422 `errors.qc.unknown_room_type`).',
    '`occupancies[]` (wire form `{code, pricing?: {derived_from, adjust}}`, plus our `kind`',
    '`fee|cost_free|inactive` and `fee`) needs exactly one room type (else 422',
    '`errors.qc.occupancies_require_single_room`); the pair then exposes exactly the listed codes valid for',
    'the room, unknown codes and derived codes whose base is not a listed manual code are dropped silently.',
    `Omitted policies: the property's oldest, or placeholders named "${PLACEHOLDER_PREFIX}..." created when it`,
    'has none; explicit `payment_policy_id` / `cancellation_policy_id` must be policies of this property.',
    'A child plan: `parent_rate_plan_id` (external id or partner code of a non-child plan of this property;',
    '422 `errors.qc.parent_rate_plan_not_found` / `errors.qc.parent_rate_plan_not_on_property`) and an',
    'optional `derivation` `{percent: -10}` or `{adjust: "-10%"}`, with optional `periods[]` `{from, to,',
    'percent|adjust}` per check-in period (days that exist, `from` <= `to`: 422 rule `format` / `before_from` on',
    '`derivation.periods.<i>.from|to`); default 0%. A `derivation` without parent: 422',
    "`errors.qc.derivation_requires_parent`. A child sells like its parent, on the parent's rooms (all of",
    'them when `room_type_ids` is omitted). The record and its mapping commit together, so',
    '`errors.qc.rate_plan_created_map_failed` cannot occur.',
  ].join(' '),
  params: PropertyParams,
  body: CreateRatePlanBody,
  status: 201,
  response: okSchema(RatePlanSchema),
  errors: [
    'errors.not_found',
    'errors.qc.partner_code_taken',
    'errors.qc.unknown_room_type',
    'errors.qc.occupancies_require_single_room',
    'errors.qc.parent_rate_plan_not_found',
    'errors.qc.parent_rate_plan_not_on_property',
    'errors.qc.derivation_requires_parent',
  ],
  handle: inProperty(async ({ deps, principal, body, request }, property) => {
    const kept = keptCreate(request, deps.clock.now());
    return ok(await addRatePlan(deps.db, principal, property, body, (tx, shown) => kept.keep(tx, 201, ok(shown))));
  }),
});
