import { type PropertyRow, resolveProperty } from '../resolve.ts';
import type { RouteInput } from './route.ts';

/**
 * The handler of an operation under /properties/:property: the path's property is resolved for the caller
 * (404 when it is unknown or outside the caller's grant, as resolveProperty answers) before `handle` runs
 * with it, so no handler repeats the lookup.
 */
export function inProperty<P extends { property: string } | Record<string, string>, Q, B>(
  handle: (input: RouteInput<P, Q, B>, property: PropertyRow) => unknown,
): (input: RouteInput<P, Q, B>) => Promise<unknown> {
  // Path params of a record under a property (`{property, <name>}`, server/config-surfaces) type as a record.
  const segmentOf = (params: P) => (params as Record<string, string>).property ?? '';
  return async (input) => handle(input, await resolveProperty(input.deps.db, input.principal, segmentOf(input.params)));
}
