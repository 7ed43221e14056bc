import { t } from 'elysia';

/**
 * The body of a write that takes none (a no-show, a revision ack, a re-enable): optional, so a call without a
 * body stays valid, and an object without fields, so each field sent is named in `warnings` as undeclared
 * (README: never dropped without a word). A route without a body schema is not walked at all.
 */
export const EmptyBody = t.Optional(
  t.Object({}, { description: 'No fields: a field sent is ignored and named in warnings.' }),
);
