import { t } from 'elysia';
import { ApiError } from '../core/http/api-error.ts';
import { type ErrorKey, errorCatalogue } from '../core/http/error-catalogue.ts';

/** A row a push refuses the whole batch for, with the ids it sent. */
export interface RefusedRow {
  row: number;
  room_type_id: string;
  rate_plan_id?: string;
}

/** The fields errors.qc.batch_too_large answers (actors/batch-limits.ts), on the pushes and the per-plan write. */
export const BATCH_LIMIT_FIELDS = {
  limit: t.Union([t.Literal('rows'), t.Literal('day_rows')], {
    description: 'with errors.qc.batch_too_large: the limit exceeded',
  }),
  max: t.Integer({ description: 'with errors.qc.batch_too_large: the limit (1000 rows, 20000 day-rows)' }),
  actual: t.Integer({ description: 'with errors.qc.batch_too_large: what the request counted' }),
} as const;

/**
 * The fields a push's 422 answers beside the envelope, so the API document and the typed client know them:
 * the batch limits, `rows` with every domain refusal (`unknown_fields`, for a refusal of rows left without their
 * payload, is declared by the pushes that answer it).
 */
export const PUSH_REFUSAL_FIELDS = {
  ...BATCH_LIMIT_FIELDS,
  rows: t.Array(
    t.Object({
      row: t.Integer({ description: 'Index of the row in `values`' }),
      room_type_id: t.String(),
      rate_plan_id: t.Optional(t.String()),
    }),
    {
      description:
        'with every errors.qc.* refusal but errors.qc.batch_too_large: the rows refused, with the ids they sent',
    },
  ),
} as const;

/** ... and `unknown_fields`, for a push whose rows can be refused for a payload validation dropped. */
export function unknownFieldsField(key: ErrorKey, example: string) {
  return t.Array(t.String(), {
    description: `with ${key}: the fields of the refused rows the push does not know (\`${example}\`), when there are any`,
  });
}

/**
 * A row refused for lacking its payload is most often one whose field was misspelled (`min_stya`, `price`):
 * validation drops the field, so the refusal names the undeclared fields of the refused rows, as a written push
 * names them in `warnings`.
 */
export function rowsWithoutPayload(
  key: ErrorKey,
  rows: readonly RefusedRow[],
  undeclared: readonly string[],
  rowKind: string,
): ApiError {
  const refused = new Set(rows.map(({ row }) => row));
  const unknown = undeclared.filter((field) => refused.has(Number(/^values\.(\d+)\./.exec(field)?.[1])));
  if (!unknown.length) return new ApiError(key, { rows });
  const detail = `${errorCatalogue[key].detail} Not fields of a ${rowKind} row: ${unknown.join(', ')}.`;
  return new ApiError(key, { detail, rows, unknown_fields: unknown });
}
