import { recordInProperty } from '../core/routes/in-property.ts';
import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { findOwned, type OwnedRow, type OwnedTable } from './owned-records.ts';

/**
 * The record of a route under /properties/:property/<table>/:<param> (a payment policy, a promotion...), declared
 * as the route's `pathRecord`: the pipeline resolves it on the path's property before it reads the body, so
 * another property's record, a deleted one, an unknown id or one of the wrong form is a 404 whatever the body
 * (README, Configuration surfaces). A write still locks the live one in its transaction, where one deleted in
 * between is a 404 too; a keyed retry of a DELETE that went through replays its first answer (the pipeline looks
 * for it before this 404).
 */
export function ownedInPath<R extends OwnedRow>(table: OwnedTable, param: string): PathRecordResolver<R> {
  return recordInProperty((deps, property, params) => findOwned<R>(deps.db, table, property.id, params[param] ?? ''));
}
