import type { Db } from '../core/db/db.ts';
import { validationError } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { type AmenityLevel, amenityById, amenityEntry, assignmentErrors } from './catalogue.ts';
import type { AmenityLocale } from './locale.ts';

export interface Assignment {
  id: string;
  options?: Record<string, string>;
}

/** Where amenities are assigned: the property (HAC, level property) or one room type (RMA, level unit). */
export type AmenityTarget =
  | { kind: 'property'; property: PropertyRow }
  | { kind: 'room_type'; property: PropertyRow; roomTypeId: number; roomTypeExternalId: string };

const levelOfTarget = (target: AmenityTarget): AmenityLevel => (target.kind === 'property' ? 'property' : 'unit');

export async function assignedAmenities(db: Db, target: AmenityTarget, locale: AmenityLocale) {
  const rows =
    target.kind === 'property'
      ? await db.sql<{ code: string; options: Record<string, string> }>`
          select code, options from property_amenities where property_id = ${target.property.id} order by code`
      : await db.sql<{ code: string; options: Record<string, string> }>`
          select code, options from room_type_amenities where room_type_id = ${target.roomTypeId} order by code`;
  return {
    amenities: rows.flatMap((r) => {
      const spec = amenityById(r.code);
      if (!spec) return [];
      const entry = amenityEntry(spec, locale);
      return [{ id: entry.id, name: entry.name, group: spec.group, options: r.options }];
    }),
  };
}

/** Whether the target holds exactly these amenities with these options (order aside). */
async function sameAssignments(tx: Db, target: AmenityTarget, assignments: readonly Assignment[]): Promise<boolean> {
  const rows =
    target.kind === 'property'
      ? await tx.sql<{ code: string; options: Record<string, string> }>`
          select code, options from property_amenities where property_id = ${target.property.id} for update`
      : await tx.sql<{ code: string; options: Record<string, string> }>`
          select code, options from room_type_amenities where room_type_id = ${target.roomTypeId} for update`;
  const canonical = (options: Record<string, string>) => JSON.stringify(Object.entries(options).sort());
  const stored = new Map(rows.map((r) => [r.code, canonical(r.options)]));
  return (
    stored.size === assignments.length && assignments.every((a) => stored.get(a.id) === canonical(a.options ?? {}))
  );
}

/**
 * Replaces the whole set (422 for an id or option value outside the catalogue, nothing written). The set already
 * stored writes nothing and records no `amenities.updated` (spec 6.3: the event says the set changed).
 */
export async function replaceAmenities(tx: Db, target: AmenityTarget, assignments: readonly Assignment[]) {
  const errors = assignmentErrors(levelOfTarget(target), assignments);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  if (await sameAssignments(tx, target, assignments)) return;
  const codes = assignments.map((a) => a.id);
  const options = assignments.map((a) => JSON.stringify(a.options ?? {}));
  if (target.kind === 'property') {
    await tx.sql`delete from property_amenities where property_id = ${target.property.id}`;
    await tx.sql`insert into property_amenities (property_id, code, options)
      select ${target.property.id}, code, options::jsonb from unnest(${codes}::text[], ${options}::text[]) as u(code, options)`;
  } else {
    await tx.sql`delete from room_type_amenities where room_type_id = ${target.roomTypeId}`;
    await tx.sql`insert into room_type_amenities (room_type_id, code, options)
      select ${target.roomTypeId}, code, options::jsonb from unnest(${codes}::text[], ${options}::text[]) as u(code, options)`;
  }
  await recordEvent(tx, {
    type: 'amenities.updated',
    customerId: target.property.customer_id,
    propertyId: target.property.id,
    data: {
      property_id: target.property.external_id,
      room_type_id: target.kind === 'room_type' ? target.roomTypeExternalId : null,
      amenity_ids: codes,
    },
  });
}
