import type { Deps } from '../core/deps.ts';
import { fieldError, validationError } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { resolveProperty, resolveRatePlan } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { PropertyParams } from '../properties/model.ts';
import { uniquePartnerCode } from '../properties/partner-code.ts';
import { createRequest } from './create-request.ts';
import { explicitOccupancyErrors } from './explicit-occupancies.ts';
import { CreateRatePlanBody, PricingModelBody, RatePlanParams, UpdateRatePlanBody } from './model.ts';
import { PLACEHOLDER_PREFIX } from './policies.ts';
import { applyPricingModel } from './pricing-model.ts';
import { ENTRY_DOC } from './read-routes.ts';
import { createRatePlan, lockStructure, type RatePlanRecord } from './service.ts';
import { pairsOfPlan, planRow } from './store.ts';
import { ratePlanView } from './view.ts';

const VOCABULARY_DOC =
  'Vocabularies per room: per_room `ROOM`; per_person A1..An (n = regular beds), AEB, T/C/I x RB/EB/NB; per_occupancy A1..An and Apn/Tpn/Cpn/Ipn positions (rule and examples in the README, "Occupancy vocabularies").';

export function registerRatePlanWrites(app: QcApp, deps: Deps) {
  app.post(
    routes.ratePlansCreate.path,
    async ({ principal, params, body, set }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const input = await createRequest(deps.db, principal, property, body);
      const view = await deps.db.tx(async (tx) => {
        const plan = await createRatePlan(tx, property, input);
        return ratePlanView(await planRow(tx, plan.id), await pairsOfPlan(tx, property.id, plan.id));
      });
      set.status = 201;
      return ok(view);
    },
    {
      qc: routes.ratePlansCreate,
      params: PropertyParams,
      body: CreateRatePlanBody,
      detail: {
        summary: routes.ratePlansCreate.summary,
        tags: ['rate plans'],
        description: [
          'Creates the plan and one pair per room type in one transaction and answers 201 with the plan as GET',
          `one shows it (\`mappings[]\` echo \`parent_rate_plan_id\`). ${VOCABULARY_DOC}`,
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
          'percent|adjust}` per check-in period; default 0%. A `derivation` without parent: 422',
          "`errors.qc.derivation_requires_parent`. A child sells like its parent, on the parent's rooms (all of",
          'them when `room_type_ids` is omitted). The record and its mapping commit together, so',
          '`errors.qc.rate_plan_created_map_failed` cannot occur.',
        ].join(' '),
      },
    },
  );
  app.patch(
    routes.ratePlansUpdate.path,
    async ({ principal, params, body }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const plan = (await resolveRatePlan(deps.db, property.id, params.ratePlan)) as unknown as RatePlanRecord;
      if (body.sell_type && plan.parent_id !== null && body.sell_type !== plan.sell_type) {
        throw fieldError('rate_plan', 'sell_type', 'follows_parent');
      }
      const view = await deps.db.tx(async (tx) => {
        await lockStructure(tx, property.id);
        await uniquePartnerCode(async () => {
          const [row] = await tx.sql<{ id: number }>`
            update rate_plans set
              name = coalesce(${body.title ?? null}, name),
              name_tr = coalesce(${body.name_tr ?? null}::jsonb, name_tr),
              meal_plan = coalesce(${body.meal_plan ?? null}, meal_plan),
              partner_code = case when ${body.partner_code !== undefined} then ${body.partner_code ?? null} else partner_code end,
              updated_at = now()
            where id = ${plan.id} returning id`;
          return row;
        });
        // The same sell type again is no flip: explicit occupancies stay.
        const [current] = await tx.sql<{ sell_type: string }>`select sell_type from rate_plans where id = ${plan.id}`;
        if (body.sell_type && body.sell_type !== current?.sell_type) {
          await applyPricingModel(tx, property, plan.id, body.sell_type, undefined);
        }
        return ratePlanView(await planRow(tx, plan.id), await pairsOfPlan(tx, property.id, plan.id));
      });
      return ok(view);
    },
    {
      qc: routes.ratePlansUpdate,
      params: RatePlanParams,
      body: UpdateRatePlanBody,
      detail: {
        summary: routes.ratePlansUpdate.summary,
        tags: ['rate plans'],
        description: [
          "Only the fields present change. A different `sell_type` flips the plan and re-derives every pair's",
          'vocabulary from its room; explicit occupancies are discarded (set them again with PUT pricing-model),',
          "so flipping and flipping back restores the computed vocabulary. Child plans follow their parent's sell",
          'type (changing it on a child: 422). Records `rate_plan.updated` when the sell type changes.',
          ENTRY_DOC,
        ].join(' '),
      },
    },
  );
  app.put(
    routes.ratePlansPricingModel.path,
    async ({ principal, params, body }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const plan = (await resolveRatePlan(deps.db, property.id, params.ratePlan)) as unknown as RatePlanRecord;
      if (body.occupancies) {
        const errors = explicitOccupancyErrors(body.occupancies, 'rate_plan');
        if (Object.keys(errors).length) throw validationError(errors);
      }
      const base = { rate_plan_id: plan.external_id };
      if (plan.parent_id !== null) {
        return ok({
          ...base,
          sell_type: plan.sell_type,
          pairs_updated: 0,
          explicit_occupancies: false,
          skipped: 'derived_plan',
        });
      }
      const result = await deps.db.tx((tx) =>
        applyPricingModel(tx, property, plan.id, body.sell_type, body.occupancies),
      );
      return ok({
        ...base,
        sell_type: body.sell_type,
        pairs_updated: result.pairsUpdated,
        explicit_occupancies: result.explicitOccupancies,
      });
    },
    {
      qc: routes.ratePlansPricingModel,
      params: RatePlanParams,
      body: PricingModelBody,
      detail: {
        summary: routes.ratePlansPricingModel.summary,
        tags: ['rate plans'],
        description: [
          'Sets `sell_type` and re-derives the vocabulary of every non-deleted pair; `occupancies[]` (wire form as on',
          'create) narrows each pair to the listed codes valid for its room (any number of room types here).',
          'Idempotent: the same body gives the same state and the same answer `{rate_plan_id, sell_type,',
          'pairs_updated, explicit_occupancies}`, where `pairs_updated` counts the pairs walked and',
          '`explicit_occupancies` tells whether the list applied to at least one pair. A child (derivative) plan is',
          'skipped: `pairs_updated: 0` and `skipped: "derived_plan"`; its vocabulary follows the parent\'s.',
          `Records \`rate_plan.updated\` only when something changed. ${VOCABULARY_DOC}`,
        ].join(' '),
      },
    },
  );
}
