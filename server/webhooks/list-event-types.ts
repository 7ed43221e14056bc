import { t } from 'elysia';
import { eventCatalog } from '../core/event-catalog.ts';
import { MetaSchema, ok, okSchema } from '../core/http/envelope.ts';
import { PagingQuery, pageOfItems } from '../core/http/paging.ts';
import { defineRoute } from '../core/routes/route.ts';
import { EventTypeSchema } from './model.ts';

export const listEventTypes = defineRoute({
  name: 'qc.event_catalog.list',
  method: 'GET',
  path: '/event-catalog',
  scope: null,
  bucket: 'reads',
  resource: 'event',
  summary: 'Every event type with its data shape',
  tags: ['webhooks'],
  description:
    'Every event the service emits, with the JSON Schema of its `data` and an example. An entry with `alias_of` is a subscription name for that event: it delivers the same single webhook under the alias name. `scope` is the scope a token needs beside subscriptions.manage to subscribe to the event (null: none).',
  query: PagingQuery,
  response: okSchema(t.Object({ events: t.Array(EventTypeSchema), meta: MetaSchema })),
  handle({ query }) {
    const { items, meta } = pageOfItems(eventCatalog(), query);
    return ok({ events: items, meta });
  },
});
