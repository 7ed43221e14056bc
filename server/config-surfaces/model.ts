import { type TString, Type } from '@sinclair/typebox';
import { t } from 'elysia';
import { pagingQuery } from '../core/http/paging.ts';

/** Path params of a record under a property: `{property, <name>}`. */
export const RecordParams = <K extends string>(name: K) =>
  t.Object({ property: t.String(), ...({ [name]: t.String() } as Record<K, TString>) });

export const PageQuery = t.Object({
  ...pagingQuery(),
});

/** `YYYY-MM-DD`, a real calendar date. */

/** TypeBox's own numbers: Elysia's coerce numeric strings, and a JSON body should carry numbers. */
export const Int = (options: { minimum?: number; maximum?: number; description?: string } = {}) =>
  Type.Integer(options);
export const Num = (options: { minimum?: number; maximum?: number; exclusiveMinimum?: number; description?: string }) =>
  Type.Number(options);

export const Timestamps = {
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
};

/** The fields that open every named configuration record's view: its id, plain name and translations. */
export const NamedRecord = {
  id: t.String({ format: 'uuid' }),
  name: t.String(),
  name_tr: t.Record(t.String(), t.String()),
};

/** Beside a policy DELETE's 409 `errors.qc.<policy>_in_use`: the plans that still use it (policy-usage.ts). */
export const PolicyInUseFields = {
  409: {
    rate_plan_ids: t.Array(t.String({ format: 'uuid' }), {
      description: 'with errors.qc.*_policy_in_use: the live rate plans that still use the policy',
    }),
  },
};

export const DeletedSchema = t.Object({ id: t.String({ format: 'uuid' }), deleted: t.Literal(true) });

/** The first non-empty translation, for records whose plain `name` was left empty. */
export function firstTranslation(nameTr: Record<string, string> | undefined): string {
  return Object.values(nameTr ?? {}).find((v) => v.trim() !== '') ?? '';
}
