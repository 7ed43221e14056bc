import { t } from 'elysia';

const Entry = t.Object({ code: t.String({ minLength: 1, maxLength: 100 }), name: t.String({ maxLength: 255 }) });
const Entries = (what: string) =>
  t.Optional(t.Array(Entry, { maxItems: 2000, description: `${what}; omitted means empty` }));

/** The partner catalogue (spec 2.2); a push replaces all three arrays, an omitted one becomes empty. */
export const CatalogueBody = t.Object({
  rooms: Entries('Room codes'),
  rates: Entries('Rate codes'),
  meals: Entries('Meal codes'),
});

export const CatalogueSyncBody = t.Object({
  properties: t.Array(
    t.Object({
      property_id: t.String({ minLength: 1, description: 'External id or partner code' }),
      rooms: Entries('Room codes'),
      rates: Entries('Rate codes'),
      meals: Entries('Meal codes'),
    }),
    { maxItems: 1000 },
  ),
  clear_unlisted: t.Optional(
    t.Boolean({
      description:
        'Default false. true: every other property the token may act on gets an empty catalogue (a full replacement of the whole group)',
    }),
  ),
});

export const JobParams = t.Object({ job: t.String() });

const StoredEntry = t.Object({ code: t.String(), name: t.String() });

/** The stored catalogue as PUT /properties/{ext}/catalogue answers it. */
export const CatalogueSchema = t.Object({
  property_id: t.String({ format: 'uuid' }),
  rooms: t.Array(StoredEntry),
  rates: t.Array(StoredEntry),
  meals: t.Array(StoredEntry),
  updated_at: t.String({ format: 'date-time' }),
});

/** The catalogue as GET reads it: `updated_at` is null while nothing was ever pushed. */
export const StoredCatalogueSchema = t.Object({
  ...CatalogueSchema.properties,
  updated_at: t.Nullable(t.String({ format: 'date-time' }), { description: 'Null: never pushed' }),
});

const Outcome = t.Union([t.Literal('replaced'), t.Literal('cleared'), t.Literal('failed')]);

/** A catalogue-sync job as POST answers it and GET reads it again. */
export const CatalogueSyncJobSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  status: t.Union([t.Literal('queued'), t.Literal('running'), t.Literal('completed'), t.Literal('failed')]),
  clear_unlisted: t.Boolean(),
  created_at: t.String({ format: 'date-time' }),
  completed_at: t.Nullable(t.String({ format: 'date-time' })),
  counts: t.Object({ replaced: t.Integer(), cleared: t.Integer(), failed: t.Integer() }),
  properties: t.Array(
    t.Object({
      property_id: t.String({ description: 'External id once resolved; as requested when it failed' }),
      requested_as: t.Optional(t.String()),
      outcome: Outcome,
      error: t.Optional(t.String()),
    }),
  ),
  error: t.Optional(t.String()),
});
