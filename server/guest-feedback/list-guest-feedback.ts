import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { listFeedback } from './feedback.ts';
import { FeedbackListQuery, FeedbackSchema } from './model.ts';
import { feedbackView } from './view.ts';

export const listGuestFeedback = defineRoute({
  name: 'qc.guest_feedback.list',
  method: 'GET',
  path: '/properties/:property/guest_feedback',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'guest_feedback',
  summary: 'Guest feedback of the property, newest answer first',
  tags: ['guest feedback'],
  description: '`booking_id` narrows to one booking (its external_booking_id). Paged like every list.',
  params: PropertyParams,
  query: FeedbackListQuery,
  response: okSchema(t.Object({ guest_feedback: t.Array(FeedbackSchema), meta: MetaSchema })),
  handle: inProperty(async ({ deps, query }, property) => {
    const { page, perPage } = pageOf(query);
    const { rows, total } = await listFeedback(deps.db, property.id, page, perPage, query.booking_id);
    return ok({ guest_feedback: rows.map(feedbackView), meta: pageMeta(total, page, perPage) });
  }),
});
