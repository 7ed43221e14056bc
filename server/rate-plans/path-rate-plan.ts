import { resolveRatePlan } from '../core/resolve.ts';
import { recordInProperty } from '../core/routes/in-property.ts';
import type { RatePlanRecord } from './service.ts';

/**
 * The rate plan of every route under /properties/:property/rate_plans/:ratePlan (its rates too), declared as the
 * route's `pathRecord`: the pipeline resolves it on the path's property (external id, then partner code) before it
 * reads the body, so another property's plan, a deleted one or an unknown segment is a 404 whatever the body
 * (README, Authorization), and the handler gets the row.
 */
export const pathRatePlan = recordInProperty((deps, property, params) =>
  resolveRatePlan<RatePlanRecord>(deps.db, property.id, params.ratePlan ?? ''),
);
