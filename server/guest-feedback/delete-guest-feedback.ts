import { t } from 'elysia';
import { EmptyBody } from '../core/http/empty-body.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { deleteFeedback } from './feedback.ts';
import { FeedbackParams } from './model.ts';
import { pathFeedback } from './path-feedback.ts';

export const deleteGuestFeedback = defineRoute({
  name: 'qc.guest_feedback.delete',
  method: 'DELETE',
  path: '/properties/:property/guest_feedback/:feedback',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'guest_feedback',
  summary: 'Delete a guest feedback answer',
  tags: ['guest feedback'],
  params: FeedbackParams,
  body: EmptyBody,
  response: okSchema(t.Object({ id: t.String({ format: 'uuid' }), deleted: t.Literal(true) })),
  pathRecord: pathFeedback,
  handle: inProperty(async ({ deps, params }, property) => {
    return ok(await deps.db.tx((tx) => deleteFeedback(tx, property, params.feedback)));
  }),
});
