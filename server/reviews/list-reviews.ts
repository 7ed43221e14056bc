import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { ReviewListQuery, ReviewSchema } from './model.ts';
import { listReviews } from './reviews.ts';
import { reviewView } from './view.ts';

export const listPropertyReviews = defineRoute({
  name: 'qc.reviews.list',
  method: 'GET',
  path: '/properties/:property/reviews',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'review',
  summary: 'Reviews guests left on channels, newest first',
  tags: ['reviews'],
  description:
    'Filters: `channel` (exact code), `replied` (`1` with a reply, `0` without). Each review shows `replies_supported` and, once replied, `reply.delivery` (status `pending`, `sending`, `sent` or `failed`, attempts, last_error, next_attempt_at, sent_at).',
  params: PropertyParams,
  query: ReviewListQuery,
  response: okSchema(t.Object({ reviews: t.Array(ReviewSchema), meta: MetaSchema })),
  handle: inProperty(async ({ deps, query }, property) => {
    const { page, perPage } = pageOf(query);
    const replied = query.replied === undefined ? undefined : query.replied === '1';
    const { rows, total } = await listReviews(deps.db, property.id, { channel: query.channel, replied }, page, perPage);
    return ok({ reviews: rows.map(reviewView), meta: pageMeta(total, page, perPage) });
  }),
});
