import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { type ResolvedButton, resolveBookingButton } from './store.ts';

/**
 * The button of every route under /booking_buttons/:button, declared as the route's `pathRecord`: the pipeline
 * resolves it for the caller before it reads the body, so another customer's button, or an unknown id, is a 404
 * whatever the body (README, Configuration surfaces), and the handler gets it with its property.
 */
export const pathButton: PathRecordResolver<ResolvedButton> = (deps, principal, params) =>
  resolveBookingButton(deps.db, principal, params.button ?? '');
