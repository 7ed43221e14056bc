import { type FieldErrors, validationError } from '../core/http/api-error.ts';
import { WEEK_DAYS, type WeekDay } from './model.ts';

export interface ServiceNaming {
  name: string;
  name_tr: Record<string, string>;
}

export interface SelectDates {
  type: '0' | '1' | '2';
  min_days: number | null;
  max_days: number | null;
}

const message = (rule: string) => [`customer.extra_service.messages.${rule}`];

/**
 * Spec 2.9, checked on the merged record (a PATCH may clear the name a translation still covers): at least
 * one of `name` or a `name_tr` value is non-empty; guest-picked ranges (type '2') need min_days <= max_days,
 * other types hold no bounds. Week days are stored Monday first.
 */
export function checkService(naming: ServiceNaming, dates: SelectDates, days: readonly WeekDay[]) {
  const errors: FieldErrors = {};
  const named = naming.name.trim() !== '' || Object.values(naming.name_tr).some((v) => v.trim() !== '');
  if (!named) errors.name = message('name_or_name_tr_required');
  let settings: SelectDates = { type: dates.type, min_days: null, max_days: null };
  if (dates.type === '2') {
    settings = { ...dates };
    if (dates.min_days === null) errors['client_select_dates_settings.min_days'] = message('required');
    if (dates.max_days === null) errors['client_select_dates_settings.max_days'] = message('required');
    if (dates.min_days !== null && dates.max_days !== null && dates.min_days > dates.max_days)
      errors['client_select_dates_settings.min_days'] = message('min_gt_max');
  }
  if (Object.keys(errors).length) throw validationError(errors);
  return { settings, days: WEEK_DAYS.filter((d) => days.includes(d)) };
}
