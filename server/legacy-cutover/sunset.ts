import { LEGACY_ENDPOINTS } from '../../legacy/methods.ts';
import { addMonths, isDay, utcDay } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError, validationError } from '../core/http/api-error.ts';

/** Spec 9.4: the legacy facade is not shut down before this day. */
export const EARLIEST_SUNSET = '2027-08-01';
/** Spec 9.4: affected endpoints announce the date at least this many months ahead. */
export const NOTICE_MONTHS = 6;

export interface SunsetSetting {
  /** YYYY-MM-DD, UTC: the day from which the affected endpoints may be switched off. */
  date: string;
  /** `class/method` names; null: every legacy endpoint. */
  endpoints: string[] | null;
  setAt: Date;
}

/** Why a proposed date is refused, or undefined when it may be set on `today` (UTC). */
export function sunsetDateRefusal(date: string, today: string): string | undefined {
  if (date < EARLIEST_SUNSET) return `the legacy facade is not shut down before ${EARLIEST_SUNSET}`;
  const earliest = addMonths(today, NOTICE_MONTHS);
  if (date < earliest)
    return `the Sunset header must be sent at least ${NOTICE_MONTHS} months ahead: the earliest date set today is ${earliest}`;
  return undefined;
}

const endpointByLowerName = new Map(LEGACY_ENDPOINTS.map((name) => [name.toLowerCase(), name]));

/** A method name as the table spells it, in any letter case (the facade itself forgives case); undefined if unknown. */
export function canonicalEndpoint(name: string): string | undefined {
  return endpointByLowerName.get(name.toLowerCase());
}

export function affects(setting: SunsetSetting, endpoint: string | undefined): boolean {
  return setting.endpoints === null || (endpoint !== undefined && setting.endpoints.includes(endpoint));
}

/** RFC 8594: `Sunset: <HTTP-date>` (midnight UTC of the day) and, when there is one, the guide as `rel="sunset"`. */
export function sunsetHeaders(setting: SunsetSetting, guideUrl: string | undefined): Record<string, string> {
  const sunset = { Sunset: new Date(`${setting.date}T00:00:00Z`).toUTCString() };
  return guideUrl ? { ...sunset, Link: `<${guideUrl}>; rel="sunset"` } : sunset;
}

export async function readSunset(db: Db): Promise<SunsetSetting | undefined> {
  const [row] = await db.sql<{ sunset_date: string; endpoints: string[] | null; set_at: Date }>`
    select sunset_date, endpoints, set_at from legacy_sunset where id = 1`;
  return row ? { date: row.sunset_date, endpoints: row.endpoints, setAt: row.set_at } : undefined;
}

/** Withdraws the sunset: no answer carries Sunset any more and nothing is switched off. Answers whether one was set. */
export async function withdrawSunset(deps: Deps, cache: SunsetCache): Promise<boolean> {
  const rows = await deps.db.sql`delete from legacy_sunset where id = 1 returning id`;
  cache.forget();
  return rows.length > 0;
}

export async function saveSunset(db: Db, setting: SunsetSetting): Promise<void> {
  await db.sql`
    insert into legacy_sunset (id, sunset_date, endpoints, set_at)
    values (1, ${setting.date}, ${setting.endpoints}, ${setting.setAt})
    on conflict (id) do update set sunset_date = excluded.sunset_date, endpoints = excluded.endpoints,
      set_at = excluded.set_at`;
}

/**
 * The sunset setting as every legacy request needs it, read at most once per `ttlMs` per process: it is set
 * months ahead, so another process seeing a new date a few seconds late changes nothing, while a read per
 * request would add a query to every legacy call. The process that sets it forgets its copy at once.
 */
export class SunsetCache {
  #value: Promise<SunsetSetting | undefined> | undefined;
  #readAt = 0;

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 5000,
  ) {}

  current(): Promise<SunsetSetting | undefined> {
    const now = performance.now();
    if (!this.#value || now - this.#readAt > this.ttlMs) {
      this.#readAt = now;
      this.#value = readSunset(this.db).catch((error) => {
        this.#value = undefined;
        throw error;
      });
    }
    return this.#value;
  }

  forget(): void {
    this.#value = undefined;
  }
}

/**
 * Sets (or moves) the facade's sunset. Refused with `errors.qc.sunset_date_refused` when the date is before
 * EARLIEST_SUNSET or less than NOTICE_MONTHS from today (UTC); unknown endpoint names are a validation error.
 * This process forgets its cached copy at once; others see the date within the cache's few seconds.
 */
export async function setSunset(
  deps: Deps,
  cache: SunsetCache,
  input: { date: string; endpoints?: string[] },
): Promise<SunsetSetting> {
  if (!isDay(input.date)) throw validationError({ date: ['customer.legacy_sunset.messages.format'] });
  const reason = sunsetDateRefusal(input.date, utcDay(deps.clock.now()));
  if (reason) throw new ApiError('errors.qc.sunset_date_refused', { reason });
  const given = input.endpoints ?? [];
  const endpoints = given.map(canonicalEndpoint);
  if (endpoints.includes(undefined)) {
    const errors = Object.fromEntries(
      endpoints.flatMap((name, i) => (name ? [] : [[`endpoints.${i}`, ['customer.legacy_sunset.messages.in']]])),
    );
    // The 422 lists what it accepts, so a typo is fixed from the answer alone.
    throw new ApiError('errors.validation_error', { errors, accepted_endpoints: [...LEGACY_ENDPOINTS] });
  }
  const setting: SunsetSetting = {
    date: input.date,
    endpoints: endpoints.length ? [...new Set(endpoints as string[])] : null,
    setAt: deps.clock.now(),
  };
  await saveSunset(deps.db, setting);
  cache.forget();
  return setting;
}
