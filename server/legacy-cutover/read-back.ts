import { parseBody, parseQuery } from '../../legacy/php-input.ts';
import { daysBetween, isDay } from '../core/days.ts';
import type { LegacyRequestBytes } from './forward-upstream.ts';

/** A read-back longer than this is not asked for (a two-year write would read back two years of every room). */
const MAX_DAYS = 62;

/**
 * What a shadowed updateAvailability wrote, made comparable: its answer is only `{"message":"Success"}` on both
 * sides, so the shadow comparison also asks both for getAvailability over the days the write named (every room,
 * with the same api_key): the legacy service after its real write, the port inside the same rolled-back
 * turn as its dry-run write. Undefined when the request names no usable day, or too many.
 */
export function readBackOf(request: LegacyRequestBytes): LegacyRequestBytes | undefined {
  const question = request.pathAndQuery.indexOf('?');
  // The key as PHP read it (the last of repeated ones, `api.key` and `api%5Fkey` too): the key the write was made
  // with, so the read-back reads what that key's write left.
  const apiKey = question < 0 ? undefined : parseQuery(request.pathAndQuery.slice(question)).api_key;
  if (typeof apiKey !== 'string' || !apiKey || !request.body) return undefined;
  let body: unknown;
  try {
    body = parseBody(new TextDecoder().decode(request.body), headerOf(request, 'content-type'));
  } catch {
    return undefined;
  }
  const values = (body as { values?: unknown } | null)?.values;
  if (!values || typeof values !== 'object') return undefined;
  const days = Object.values(values as Record<string, unknown>).flatMap((row) => {
    const r = (row ?? {}) as Record<string, unknown>;
    return [r.date, r.date_from, r.date_to].filter((d): d is string => typeof d === 'string' && isDay(d));
  });
  if (!days.length) return undefined;
  const from = days.reduce((a, b) => (a < b ? a : b));
  const to = days.reduce((a, b) => (a > b ? a : b));
  if (daysBetween(from, to) > MAX_DAYS) return undefined;
  return {
    method: 'GET',
    pathAndQuery: `/api/pms/v1/availability/getAvailability?api_key=${encodeURIComponent(apiKey)}&date_from=${from}&date_to=${to}`,
    headers: request.headers.filter(([name]) => !/^(content-type|content-length)$/i.test(name)),
    body: null,
  };
}

function headerOf(request: LegacyRequestBytes, name: string): string | null {
  return request.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? null;
}
