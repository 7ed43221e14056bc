import { t } from 'elysia';
import { LOCALE_PATTERN, NameTrSchema } from '../core/name-tr.ts';

/** Locale tag to text; any other key is 422 (strict since these texts first shipped; name_tr keeps v1's older leniency). */
const LocaleText = (maxLength: number) =>
  t.Record(t.String({ pattern: LOCALE_PATTERN }), t.String({ maxLength }), { additionalProperties: false });

export const PageParams = t.Object({
  property: t.String(),
  page: t.String({ description: 'the content page id, or its slug' }),
});

const Slug = t.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' });
const ImageIds = t.Array(t.String({ format: 'uuid' }), { maxItems: 50, uniqueItems: true });

export const CreatePageBody = t.Object({
  slug: Slug,
  title: t.String({ minLength: 1, maxLength: 255 }),
  title_tr: t.Optional(NameTrSchema),
  body_html: t.Optional(LocaleText(100_000)),
  is_published: t.Optional(t.Boolean()),
  position: t.Optional(t.Integer({ minimum: 0, maximum: 10_000 })),
  image_ids: t.Optional(ImageIds),
});

/** Every field of a new page, each optional: only the fields present change. */
export const UpdatePageBody = t.Partial(CreatePageBody);

export const PageSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  slug: t.String(),
  title: t.String(),
  title_tr: t.Record(t.String(), t.String()),
  body_html: t.Record(t.String(), t.String(), { description: 'locale to HTML' }),
  is_published: t.Boolean(),
  position: t.Integer(),
  image_ids: t.Array(t.String({ format: 'uuid' }), { description: 'gallery images of the page, in order' }),
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
});

const GuideKind = t.Union([t.Literal('page'), t.Literal('text'), t.Literal('link')]);

export const GuideItemInput = t.Object({
  kind: GuideKind,
  title: t.Optional(t.String({ maxLength: 255 })),
  title_tr: t.Optional(NameTrSchema),
  text: t.Optional(LocaleText(20_000)),
  url: t.Optional(t.String({ pattern: '^https://[^\\s]+$', maxLength: 2000 })),
  content_page_id: t.Optional(t.String({ description: 'for kind page: the page id or slug' })),
});

export const GuideBody = t.Object({ items: t.Array(GuideItemInput, { maxItems: 200 }) });

export const GuideSchema = t.Object({
  items: t.Array(
    t.Object({
      id: t.String({ format: 'uuid' }),
      position: t.Integer(),
      kind: GuideKind,
      title: t.String(),
      title_tr: t.Record(t.String(), t.String()),
      text: t.Record(t.String(), t.String()),
      url: t.Nullable(t.String()),
      content_page_id: t.Nullable(
        t.String({ format: 'uuid', description: 'null on a page item whose page was deleted (reference stripped)' }),
      ),
    }),
  ),
});
