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
    t.Boolean({ description: 'Default true: every other property the token may act on gets an empty catalogue' }),
  ),
});

export const JobParams = t.Object({ job: t.String() });
