import { t } from 'elysia';
import { formatDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';
import { accepted, ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { resolveProperty } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { pushAvailability } from './availability-push.ts';
import { readAvailability } from './availability-read.ts';
import { AvailabilityBody, PriceBody, PropertyParams, PushResult, RangeQuery, RestrictionBody } from './model.ts';
import { pushRates } from './rates-push.ts';
import { readRange } from './read-range.ts';
import { pushRestrictions } from './restrictions-push.ts';

const PUSH_RULES = `Answers 202 {written, unchanged, skipped_out_of_window, dry, warnings[]}. One request: one property,
at most 1000 rows expanding to at most 20000 day-rows (else 422 errors.qc.batch_too_large). Later rows win for the
same day. Dates outside yesterday (property time zone) .. two years ahead are skipped and counted. While the property
is shadow nothing is written: dry is true and every counter is 0.`;

/** The three inventory pushes and the availability read (spec 4.4). */
export function registerInventory(app: QcApp, deps: Deps) {
  app.post(
    routes.inventoryAvailability.path,
    async ({ principal, params, body, set }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      set.status = 202;
      return accepted(await pushAvailability(deps, principal, property, body.values));
    },
    {
      qc: routes.inventoryAvailability,
      params: PropertyParams,
      body: AvailabilityBody,
      response: { 202: PushResult },
      detail: {
        summary: routes.inventoryAvailability.summary,
        description: `Free rooms per room type and date range; the service stores free + its own booked count. ${PUSH_RULES}`,
        tags: ['inventory'],
      },
    },
  );
  app.post(
    routes.inventoryRates.path,
    async ({ principal, params, body, set }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      set.status = 202;
      return accepted(await pushRates(deps, principal, property, body.values));
    },
    {
      qc: routes.inventoryRates,
      params: PropertyParams,
      body: PriceBody,
      response: { 202: PushResult },
      detail: {
        summary: routes.inventoryRates.summary,
        description: `Exactly one of rate (per_room) or prices (code to value) per row; only manual codes take values,
others are warnings. Optional restriction fields on a price row apply even when its prices do not. ${PUSH_RULES}`,
        tags: ['inventory'],
      },
    },
  );
  app.post(
    routes.inventoryRestrictions.path,
    async ({ principal, params, body, set }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      set.status = 202;
      return accepted(await pushRestrictions(deps, principal, property, body.values));
    },
    {
      qc: routes.inventoryRestrictions,
      params: PropertyParams,
      body: RestrictionBody,
      response: { 202: PushResult },
      detail: {
        summary: routes.inventoryRestrictions.summary,
        description: `At least one of min_los, max_los, stop_sell, closed_to_arrival, closed_to_departure per row; fields
not sent keep their stored value. Accepted on parent and child plans. ${PUSH_RULES}`,
        tags: ['inventory'],
      },
    },
  );
  app.get(
    routes.availabilityShow.path,
    async ({ principal, params, query }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const range = readRange(query, routes.availabilityShow.resource);
      const rooms = await readAvailability(deps.db, property.id, range.from, range.to);
      return ok({ from: formatDay(range.from), to: formatDay(range.to), rooms });
    },
    {
      qc: routes.availabilityShow,
      params: PropertyParams,
      query: RangeQuery,
      response: {
        200: t.Object({
          status: t.Literal('ok'),
          message: t.String(),
          data: t.Object({
            from: t.String(),
            to: t.String(),
            rooms: t.Array(
              t.Object({
                room_type_id: t.String(),
                partner_code: t.Nullable(t.String()),
                dates: t.Record(t.String(), t.Integer(), {
                  description: 'Date to free rooms; dates never pushed are absent',
                }),
              }),
            ),
          }),
        }),
      },
      detail: {
        summary: routes.availabilityShow.summary,
        description:
          'Rooms to dates to free capacity (offered - booked, never below 0) for from..to (at most 732 days).',
        tags: ['inventory'],
      },
    },
  );
}
