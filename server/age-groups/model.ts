import { t } from 'elysia';
import { BRACKET_CODES, type Bracket, type BracketCode, DEFAULT_BRACKETS } from '../../pricing/age-brackets.ts';
import { Int } from '../config-surfaces/model.ts';

/** The brackets in their fixed order (spec 2.9): infant, child, teen. */
export const GROUP_CODES = BRACKET_CODES;
export type GroupCode = BracketCode;
export type AgeGroup = Bracket;

export interface AgeGroupSet {
  is_active: boolean;
  groups: AgeGroup[];
}

/** A property that never set its brackets has these. */
export const DEFAULT_GROUPS: AgeGroupSet = { is_active: true, groups: [...DEFAULT_BRACKETS] };

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
