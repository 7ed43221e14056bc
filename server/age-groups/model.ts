import { t } from 'elysia';
import { Int } from '../config-surfaces/model.ts';

/** The brackets in their fixed order (spec 2.9): infant, child, teen. */
export const GROUP_CODES = ['I', 'C', 'T'] as const;
export type GroupCode = (typeof GROUP_CODES)[number];

export interface AgeGroup {
  code: GroupCode;
  from_age: number;
  to_age: number;
}

export interface AgeGroupSet {
  is_active: boolean;
  groups: AgeGroup[];
}

/** A property that never set its brackets has these. */
export const DEFAULT_GROUPS: AgeGroupSet = {
  is_active: true,
  groups: [
    { code: 'I', from_age: 0, to_age: 2 },
    { code: 'C', from_age: 3, to_age: 11 },
    { code: 'T', from_age: 12, to_age: 17 },
  ],
};

const Code = t.Union(
  GROUP_CODES.map((c) => t.Literal(c)),
  { description: 'I infant, C child, T teen' },
);
const Age = Int({ minimum: 0, maximum: 17, description: 'years; a guest of 18 or more is an adult' });

export const AgeGroupsBody = t.Object({
  is_active: t.Optional(t.Boolean()),
  groups: t.Optional(
    t.Array(t.Object({ code: Code, from_age: t.Optional(Age), to_age: t.Optional(Age) }), {
      maxItems: 3,
      description: 'only the brackets and fields present change',
    }),
  ),
});

const GroupSchema = t.Object({ code: Code, from_age: t.Integer(), to_age: t.Integer() });

export const AgeGroupsSchema = t.Object({ is_active: t.Boolean(), groups: t.Array(GroupSchema) });

export const AgeGroupsAnswerSchema = t.Object({
  is_active: t.Boolean(),
  groups: t.Array(GroupSchema),
  preview: t.Object({
    is_active_changed: t.Boolean(),
    changed_groups: t.Array(Code),
    reprice_note: t.String(),
  }),
});
