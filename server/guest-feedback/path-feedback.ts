import { recordInProperty } from '../core/routes/in-property.ts';
import { findFeedback } from './feedback.ts';

/**
 * The answer of every route under /properties/:property/guest_feedback/:feedback, declared as the route's
 * `pathRecord`: the pipeline resolves it on the path's property before it reads the body, so another property's
 * answer, an unknown id or one of the wrong form is a 404 whatever the body (README, Configuration surfaces). A
 * write reads it again in its transaction; a keyed retry of a DELETE that went through replays its first answer
 * (the pipeline looks for it before this 404).
 */
export const pathFeedback = recordInProperty((deps, property, params) =>
  findFeedback(deps.db, property.id, params.feedback ?? ''),
);
