import { recordWrite } from '../config-surfaces/config-event.ts';
import { deleteOwned, findOwned, type OwnedRow, updateOwned } from '../config-surfaces/owned-records.ts';
import type { Db } from '../core/db/db.ts';
import { nameTrOf, renamedNameTr } from '../core/name-tr.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { type ExtraServiceInput, type PriceType, WEEK_DAYS, type WeekDay } from './model.ts';
import { checkService, type SelectDates } from './rules.ts';

export interface ExtraServiceRow extends OwnedRow {
  name: string;
  name_tr: Record<string, string>;
  is_daily: boolean;
  price: number;
  price_type: PriceType;
  do_not_apply_promotions: boolean;
  active_week_days: WeekDay[];
  select_dates_type: SelectDates['type'];
  select_min_days: number | null;
  select_max_days: number | null;
}

/** The record a write leaves: the stored one (none on create) with the fields present replaced, then checked. */
function merged(current: ExtraServiceRow | undefined, input: ExtraServiceInput) {
  const dates = input.client_select_dates_settings;
  const record = {
    name: input.name ?? current?.name ?? '',
    // Created without name_tr: the name under the default locale, as every created resource (README, name_tr).
    // Renamed without name_tr: one auto-filled from the old name follows the new one (renamedNameTr).
    name_tr: current
      ? (input.name_tr ?? renamedNameTr(current.name_tr, current.name, input.name ?? current.name))
      : nameTrOf(input.name ?? '', input.name_tr),
    is_daily: input.is_daily ?? current?.is_daily ?? false,
    price: input.price ?? current?.price ?? 0,
    price_type: (input.price_type ?? current?.price_type ?? 1) as PriceType,
    do_not_apply_promotions: input.do_not_apply_promotions ?? current?.do_not_apply_promotions ?? false,
  };
  const { settings, days } = checkService(
    record,
    // A nested object merges field by field (README, PATCH): a field it omits keeps its stored value.
    {
      type: dates?.type ?? current?.select_dates_type ?? '0',
      min_days: dates && 'min_days' in dates ? (dates.min_days ?? null) : (current?.select_min_days ?? null),
      max_days: dates && 'max_days' in dates ? (dates.max_days ?? null) : (current?.select_max_days ?? null),
    },
    input.active_week_days ?? current?.active_week_days ?? WEEK_DAYS,
  );
  return { ...record, settings, days };
}

export async function createExtraService(
  tx: Db,
  property: PropertyRow,
  input: ExtraServiceInput,
  now: Date,
): Promise<ExtraServiceRow> {
  const s = merged(undefined, input);
  const [row] = await tx.sql<ExtraServiceRow>`
    insert into extra_services (property_id, name, name_tr, is_daily, price, price_type, do_not_apply_promotions,
      active_week_days, select_dates_type, select_min_days, select_max_days, created_at, updated_at)
    values (${property.id}, ${s.name}, ${s.name_tr}, ${s.is_daily}, ${s.price}, ${s.price_type},
      ${s.do_not_apply_promotions}, ${s.days}, ${s.settings.type}, ${s.settings.min_days}, ${s.settings.max_days},
      ${now}, ${now})
    returning *`;
  return recordWrite(tx, property, { type: 'extra_service.created' }, row);
}

/** PATCH: partial (spec 2.9); the merged record is checked as a whole, nothing is written when it fails. */
export async function updateExtraService(
  tx: Db,
  property: PropertyRow,
  id: string,
  input: ExtraServiceInput,
  now: Date,
): Promise<ExtraServiceRow> {
  const current = await findOwned<ExtraServiceRow>(tx, 'extra_services', property.id, id, true);
  const s = merged(current, input);
  const row = await updateOwned<ExtraServiceRow>(
    tx,
    'extra_services',
    current.id,
    {
      name: s.name,
      name_tr: s.name_tr,
      is_daily: s.is_daily,
      price: s.price,
      price_type: s.price_type,
      do_not_apply_promotions: s.do_not_apply_promotions,
      active_week_days: s.days,
      select_dates_type: s.settings.type,
      select_min_days: s.settings.min_days,
      select_max_days: s.settings.max_days,
    },
    now,
  );
  if (!row) return current;
  return recordWrite(tx, property, { type: 'extra_service.updated' }, row);
}

export function deleteExtraService(tx: Db, property: PropertyRow, id: string, now: Date): Promise<string> {
  return deleteOwned(tx, { table: 'extra_services', type: 'extra_service.deleted' }, property, id, now);
}
