import type { Db } from '../core/db/db.ts';
import { SqlState, sqlState } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError, type FieldErrors, notFound, validationError } from '../core/http/api-error.ts';
import { nameTrOf } from '../core/name-tr.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { isCurrency } from './currencies.ts';
import { isPropertyType } from './property-types.ts';
import { isTimeZone } from './time-zones.ts';

export interface NewProperty {
  customerId: number;
  name: string;
  currency: string;
  timezone: string;
  mode?: 'shadow' | 'live';
  partnerCode?: string | null;
  typeId?: number | null;
  nameTr?: Record<string, string>;
}

/**
 * Inserts a property, for the partner API, the operator API and the demo alike: a `type_id`, `currency` or `timezone`
 * outside its dictionary is 422 (rule `in`, every such field named); a partner_code already used in the customer's
 * group is 409 partner_code_taken.
 */
export async function insertProperty(db: Db, p: NewProperty): Promise<PropertyRow> {
  const errors = dictionaryErrors(p);
  if (Object.keys(errors).length) throw validationError(errors);
  try {
    const [row] = await db.sql<PropertyRow>`
      insert into properties (customer_id, name, name_tr, currency, timezone, mode, partner_code, type_id)
      values (${p.customerId}, ${p.name}, ${nameTrOf(p.name, p.nameTr)}, ${p.currency}, ${p.timezone}, ${p.mode ?? 'shadow'},
        ${p.partnerCode ?? null}, ${p.typeId ?? null})
      returning *`;
    if (!row) throw new Error('property insert returned no row');
    return row;
  } catch (err) {
    if (sqlState(err) === SqlState.uniqueViolation) throw new ApiError('errors.qc.partner_code_taken');
    throw err;
  }
}

/** The fields a property takes from a dictionary (spec 2.1): the property types, ISO 4217, the IANA zones. */
function dictionaryErrors(p: NewProperty): FieldErrors {
  const errors: FieldErrors = {};
  const refuse = (field: string) => {
    errors[field] = ['customer.property.messages.in'];
  };
  if (p.typeId != null && !isPropertyType(p.typeId)) refuse('type_id');
  if (!isCurrency(p.currency)) refuse('currency');
  if (!isTimeZone(p.timezone)) refuse('timezone');
  return errors;
}

/** The operator's shadow/live flip; an actual change records `property.mode_changed` with it. */
export async function setPropertyMode(
  deps: Deps,
  propertyId: number,
  mode: 'shadow' | 'live',
): Promise<PropertyRow | undefined> {
  return deps.db.tx(async (tx) => {
    const [before] = await tx.sql<Pick<PropertyRow, 'mode'>>`
      select mode from properties where id = ${propertyId} for update`;
    const [row] = await tx.sql<PropertyRow>`
      update properties set mode = ${mode}, updated_at = now() where id = ${propertyId} returning *`;
    if (row && before && before.mode !== mode) {
      await recordEvent(tx, {
        type: 'property.mode_changed',
        customerId: row.customer_id,
        propertyId: row.id,
        data: { property_id: row.external_id, mode, previous_mode: before.mode },
      });
    }
    return row;
  });
}

/** Ops paths take the internal id or the external uuid of a property; 404 for neither. */
export async function propertyRowOf(deps: Deps, id: string): Promise<PropertyRow> {
  // Past the largest id there is nothing to find (and PostgreSQL would refuse the number).
  if (/^\d+$/.test(id) && !Number.isSafeInteger(Number(id))) throw notFound();
  const [row] = /^\d+$/.test(id)
    ? await deps.db.sql<PropertyRow>`select * from properties where id = ${Number(id)}`
    : await deps.db.sql<PropertyRow>`select * from properties where external_id::text = ${id.toLowerCase()}`;
  if (!row) throw notFound();
  return row;
}

/** The internal id of an ops path's property (see propertyRowOf). */
export async function propertyIdOf(deps: Deps, id: string): Promise<number> {
  return (await propertyRowOf(deps, id)).id;
}

/** The operator enables or disables a property (a disabled one drops out of every allow-list). */
export async function setPropertyStatus(
  db: Db,
  propertyId: number,
  status: 'active' | 'disabled',
): Promise<PropertyRow | undefined> {
  const [row] = await db.sql<PropertyRow>`
    update properties set status = ${status}, updated_at = now() where id = ${propertyId} returning *`;
  return row;
}
