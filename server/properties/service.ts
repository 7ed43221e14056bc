import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { ApiError } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { insertProperty } from './insert-property.ts';
import { uniquePartnerCode } from './partner-code.ts';

export interface PartnerProperty {
  name: string;
  nameTr?: Record<string, string>;
  typeId: number;
  currency: string;
  timezone: string;
  partnerCode: string;
}

/**
 * A partner creates a property (spec 4.2): only a customer that owns properties may, the property starts
 * in `shadow`, and the creating credential can act on it at once: an account-scoped one sees it live, a
 * fixed-list one gets its id appended to its allow-list (other fixed-list credentials need rotation).
 */
export async function createPartnerProperty(
  tx: Db,
  principal: Principal,
  input: PartnerProperty,
): Promise<PropertyRow> {
  const [customer] = await tx.sql<{ owns_properties: boolean }>`
    select owns_properties from customers where id = ${principal.customerId}`;
  if (!customer?.owns_properties) throw new ApiError('errors.qc.property_creation_not_allowed');
  const property = await insertProperty(tx, {
    customerId: principal.customerId,
    name: input.name,
    nameTr: input.nameTr,
    currency: input.currency,
    timezone: input.timezone,
    mode: 'shadow',
    partnerCode: input.partnerCode,
    typeId: input.typeId,
  });
  if (!principal.accountScoped) {
    await tx.sql`update api_clients set property_ids = array_append(property_ids, ${property.id}::bigint)
      where id = ${principal.clientPk}`;
  }
  await recordEvent(tx, {
    type: 'property.created',
    customerId: property.customer_id,
    propertyId: property.id,
    data: { property_id: property.external_id, partner_code: property.partner_code, mode: property.mode },
  });
  return property;
}

export async function updatePropertyMapping(
  tx: Db,
  property: PropertyRow,
  patch: { partnerCode?: string | null; partnerName?: string | null },
): Promise<PropertyRow> {
  const row = await uniquePartnerCode(async () => {
    const [updated] = await tx.sql<PropertyRow>`
      update properties set
        partner_code = case when ${patch.partnerCode !== undefined} then ${patch.partnerCode ?? null} else partner_code end,
        partner_name = case when ${patch.partnerName !== undefined} then ${patch.partnerName ?? null} else partner_name end,
        updated_at = now()
      where id = ${property.id} returning *`;
    return updated;
  });
  await recordEvent(tx, {
    type: 'property.updated',
    customerId: row.customer_id,
    propertyId: row.id,
    data: { property_id: row.external_id, partner_code: row.partner_code, partner_name: row.partner_name },
  });
  return row;
}

/** One page of the caller's properties, oldest first (GET /properties). */
export function propertiesPage(db: Db, propertyIds: readonly number[], page: number, perPage: number) {
  return db.sql<PropertyRow>`
    select * from properties where id = any(${propertyIds}::bigint[])
    order by created_at, id limit ${perPage} offset ${(page - 1) * perPage}`;
}
