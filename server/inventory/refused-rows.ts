import { t } from 'elysia';
import { ApiError } from '../core/http/api-error.ts';
import { type ErrorKey, errorCatalogue } from '../core/http/error-catalogue.ts';

/** A row a push refuses the whole batch for, with the ids it sent. */
export interface RefusedRow {
  row: number;
  room_type_id: string;
  rate_plan_id?: string;
}

/**
 * The fields a push's 422 answers beside the envelope, so the API document and the typed client know them:
 * `rows` with every domain refusal, `unknown_fields` with a refusal of rows left without their payload.
 */
export const PUSH_REFUSAL_FIELDS = {
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
