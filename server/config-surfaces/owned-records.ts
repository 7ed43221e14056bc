import type { Db } from '../core/db/db.ts';
import { notFound } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import { isUuid, type PropertyRow } from '../core/resolve.ts';
import { configEvent } from './config-event.ts';

/** Configuration records that belong to one property and are soft-deleted. */
export type OwnedTable =
  | 'payment_policies'
  | 'cancellation_policies'
  | 'extra_services'
  | 'promotions'
  | 'booking_buttons'
  | 'special_offers';

export interface OwnedRow {
  id: number;
  external_id: string;
  property_id: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * One page of a property's live records in the order they were created (id order), with the
 * total for the list `meta`.
 */
export async function listOwned<T extends OwnedRow>(
  db: Db,
  table: OwnedTable,
  propertyId: number,
  page: number,
  perPage: number,
): Promise<{ rows: T[]; total: number }> {
  const rows = await db.query<T>(
    `select * from ${table} where property_id = $1 and deleted_at is null
     order by id limit $2 offset $3`,
    [propertyId, perPage, (page - 1) * perPage],
  );
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from ${table} where property_id = $1 and deleted_at is null`,
    [propertyId],
  );
  const total = count?.n ?? 0;
  return { rows, total };
}

/**
 * The live record with this external id on this property; 404 otherwise. A record of another property
 * (even one the caller may see) is not found under this property's URL. `forUpdate` locks the row for
 * the rest of the caller's transaction.
 */
export async function findOwned<T extends OwnedRow>(
  db: Db,
  table: OwnedTable,
  propertyId: number,
  id: string,
  forUpdate = false,
): Promise<T> {
  const [row] = isUuid(id)
    ? await db.query<T>(
        `select * from ${table} where external_id = $1 and property_id = $2 and deleted_at is null${forUpdate ? ' for update' : ''}`,
        [id, propertyId],
      )
    : [];
  if (!row) throw notFound();
  return row;
}

/** Configuration tables a PATCH updates through updateOwned: the owned ones and those with their own lookup. */
export type PatchedTable = OwnedTable | 'content_pages' | 'guest_feedback' | 'auto_email_templates';

/**
 * The UPDATE of a PATCH on a configuration record: sets each column of `set` and `updated_at`, and answers the
 * row, or undefined when every column already holds its value. A PATCH that changes nothing writes nothing: it
 * records no `<entity>.updated` event (the event catalogue says the record changed) and keeps `updated_at`, so a
 * PATCH retried without Idempotency-Key is no second change. `casts` gives a column's type where the bare
 * parameter is not enough (`uuid[]`). `now` omitted stamps the database's time, as those tables always did.
 */
export async function updateOwned<T extends { id: number }>(
  tx: Db,
  table: PatchedTable,
  id: number,
  set: Record<string, unknown>,
  now: Date | undefined,
  casts: Record<string, string> = {},
): Promise<T | undefined> {
  const columns = Object.keys(set);
  const value = (column: string, i: number) => `$${i + 1}${casts[column] ? `::${casts[column]}` : ''}`;
  const [row] = await tx.query<T>(
    `update ${table} set ${columns.map((c, i) => `${c} = ${value(c, i)}`).join(', ')}, updated_at = coalesce($${columns.length + 1}::timestamptz, now())
     where id = $${columns.length + 2} and (${columns.join(', ')}) is distinct from (${columns.map(value).join(', ')})
     returning *`,
    [...columns.map((c) => set[c]), now ?? null, id],
  );
  return row;
}

/**
 * DELETE of a live record of the property, written once for every entity: locks and soft-deletes it and
 * records its `<entity>.deleted` event (spelled out at the call) naming it (404 when the property has no
 * such record). `refuse` sees the locked row first and throws when the record may not go. Returns the
 * record's external id.
 */
export async function deleteOwned(
  tx: Db,
  record: { table: OwnedTable; type: `${string}.deleted` },
  property: PropertyRow,
  id: string,
  now: Date,
  refuse?: (row: OwnedRow) => Promise<void>,
): Promise<string> {
  const row = await findOwned(tx, record.table, property.id, id, true);
  if (refuse) await refuse(row);
  await tx.query(`update ${record.table} set deleted_at = $1, updated_at = $1 where id = $2`, [now, row.id]);
  const entity = record.type.slice(0, record.type.indexOf('.'));
  await recordEvent(tx, configEvent(property, { type: record.type, [`${entity}_id`]: row.external_id }));
  return row.external_id;
}
