import { type PropertyRow, resolveProperty } from '../resolve.ts';
import type { RouteInput } from './route.ts';

/**
 * The handler of an operation under /properties/:property: the path's property is resolved for the caller
 * (404 when it is unknown or outside the caller's grant, as resolveProperty answers) before `handle` runs
 * with it, so no handler repeats the lookup.
 */
export function inProperty<P extends { property: string }, Q, B>(
  handle: (input: RouteInput<P, Q, B>, property: PropertyRow) => unknown,
): (input: RouteInput<P, Q, B>) => Promise<unknown> {
  return async (input) => handle(input, await resolveProperty(input.deps.db, input.principal, input.params.property));
}
