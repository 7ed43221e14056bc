import { type TSchema, t } from 'elysia';
import type { FieldErrors } from './api-error.ts';
import { type ErrorKey, errorCatalogue } from './error-catalogue.ts';
import { validationDetail } from './validation-detail.ts';

/** The success envelope of spec section 1: {status: ok, message: ok|accepted, data}. */
export interface Envelope<T> {
  status: 'ok';
  message: 'ok' | 'accepted';
  data: T;
}

export function ok<T>(data: T): Envelope<T> {
  return { status: 'ok', message: 'ok', data };
}

export function accepted<T>(data: T): Envelope<T> {
  return { status: 'ok', message: 'accepted', data };
}

/**
 * The error envelope: the key (what clients match on) and beside it a `detail` sentence for people (from the
 * catalogue; for a 422 validation error, naming the first failing field). `detail` is informative only.
 */
export function errorBody(key: ErrorKey, extra: Record<string, unknown> = {}) {
  const errors = key === 'errors.validation_error' ? (extra.errors as FieldErrors | undefined) : undefined;
  const detail = errors ? validationDetail(errors) : errorCatalogue[key].detail;
  return { status: 'error' as const, message: key, detail, ...extra };
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** List `meta` (spec 2.1): last_page is at least 1 even for an empty result. */
export function pageMeta(total: number, page: number, perPage: number) {
  return { total, page, per_page: perPage, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

/** Response schema of an `ok` envelope around `data` (route definitions' `response`). */
export function okSchema<T extends TSchema>(data: T) {
  return t.Object({ status: t.Literal('ok'), message: t.Literal('ok'), data });
}

/** Response schema of an `accepted` envelope (202 answers). */
export function acceptedSchema<T extends TSchema>(data: T) {
  return t.Object({ status: t.Literal('ok'), message: t.Literal('accepted'), data });
}

/** List `meta` schema (every collection carries it). */
export const MetaSchema = t.Object({
  total: t.Integer(),
  page: t.Integer(),
  per_page: t.Integer(),
  last_page: t.Integer({ minimum: 1 }),
});
