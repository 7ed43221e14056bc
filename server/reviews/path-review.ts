import { recordInProperty } from '../core/routes/in-property.ts';
import { findReview } from './reviews.ts';

/**
 * The review of every route under /properties/:property/reviews/:review, declared as the route's `pathRecord`: the
 * pipeline resolves it on the path's property before it reads the body, so another property's review, an unknown
 * id or one of the wrong form is a 404 whatever the body (README, Reviews). A reply locks it again in its
 * transaction.
 */
export const pathReview = recordInProperty((deps, property, params) =>
  findReview(deps.db, property.id, params.review ?? ''),
);
