import { t } from 'elysia';
import { Day } from '../core/http/day-schema.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { changelog } from './entries.ts';

const Change = t.Object({
  kind: t.Union([t.Literal('breaking'), t.Literal('additive'), t.Literal('fix')]),
  summary: t.String(),
  migration: t.Optional(t.String()),
});
const Entry = t.Object({ date: Day, title: t.String(), changes: t.Array(Change) });

export const listChangelog = defineRoute({
  name: 'qc.changelog.list',
  method: 'GET',
  path: '/changelog',
  scope: null,
  bucket: 'reads',
  resource: 'changelog',
  auth: 'none',
  summary: 'Dated changelog of the API, newest first',
  tags: ['meta'],
  description:
    'No token needed. Each change is `breaking` (with a `migration` path), `additive` (safe for callers that ignore unknown fields) or `fix`.',
  response: okSchema(t.Object({ entries: t.Array(Entry) })),
  handle: () => ok({ entries: changelog }),
});
