import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { type FieldErrors, validationError } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';

export interface CatalogueEntry {
  code: string;
  name: string;
}

export interface Catalogue {
  rooms: CatalogueEntry[];
  rates: CatalogueEntry[];
  meals: CatalogueEntry[];
}

export const EMPTY_CATALOGUE: Catalogue = { rooms: [], rates: [], meals: [] };

export function catalogueOf(input: Partial<Catalogue>): Catalogue {
  return { rooms: input.rooms ?? [], rates: input.rates ?? [], meals: input.meals ?? [] };
}

/** A code appears once per array; a repeat is reported on its own path (`rooms.3.code`). */
export function duplicateCodeErrors(catalogue: Catalogue, prefix = ''): FieldErrors {
  const errors: FieldErrors = {};
  for (const list of ['rooms', 'rates', 'meals'] as const) {
    const seen = new Set<string>();
    catalogue[list].forEach((entry, i) => {
      if (seen.has(entry.code)) errors[`${prefix}${list}.${i}.code`] = ['customer.catalogue.messages.duplicate'];
      seen.add(entry.code);
    });
  }
  return errors;
}

/** PUT /properties/{ext}/catalogue: a repeated code is 422, else the whole catalogue is replaced. */
export async function putCatalogue(deps: Deps, property: PropertyRow, input: Partial<Catalogue>) {
  const catalogue = catalogueOf(input);
  const errors = duplicateCodeErrors(catalogue);
  if (Object.keys(errors).length) throw validationError(errors);
  const row = await deps.db.tx((tx) => storeCatalogue(tx, property, catalogue, 'put', deps.clock.now()));
  return catalogueView(property, row);
}

/** Replaces the property's whole catalogue and records `catalogue.replaced` in the same transaction. */
export async function storeCatalogue(
  tx: Db,
  property: PropertyRow,
  catalogue: Catalogue,
  source: 'put' | 'catalogue_sync',
  now: Date,
): Promise<Catalogue & { updated_at: Date }> {
  const [row] = await tx.sql<Catalogue & { updated_at: Date }>`
    insert into catalogues (property_id, rooms, rates, meals, updated_at)
    values (${property.id}, ${catalogue.rooms}::jsonb, ${catalogue.rates}::jsonb, ${catalogue.meals}::jsonb, ${now})
    on conflict (property_id) do update set rooms = excluded.rooms, rates = excluded.rates, meals = excluded.meals,
      updated_at = excluded.updated_at
    returning rooms, rates, meals, updated_at`;
  if (!row) throw new Error('catalogue upsert returned no row');
  await recordEvent(tx, {
    type: 'catalogue.replaced',
    customerId: property.customer_id,
    propertyId: property.id,
    data: {
      property_id: property.external_id,
      rooms: catalogue.rooms.length,
      rates: catalogue.rates.length,
      meals: catalogue.meals.length,
      source,
    },
  });
  return row;
}

/**
 * GET /properties/{ext}/catalogue: what the partner last pushed (PUT or catalogue-sync), as PUT answered it.
 * A property never pushed to has the empty catalogue a push of `{}` would store, with `updated_at` null.
 */
export async function readCatalogue(db: Db, property: PropertyRow) {
  const [row] = await db.sql<Catalogue & { updated_at: Date }>`
    select rooms, rates, meals, updated_at from catalogues where property_id = ${property.id}`;
  return row
    ? catalogueView(property, row)
    : { property_id: property.external_id, ...EMPTY_CATALOGUE, updated_at: null };
}

function catalogueView(property: PropertyRow, row: Catalogue & { updated_at: Date }) {
  return {
    property_id: property.external_id,
    rooms: row.rooms,
    rates: row.rates,
    meals: row.meals,
    updated_at: row.updated_at.toISOString(),
  };
}
