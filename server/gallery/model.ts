import { t } from 'elysia';

export const ImageParams = t.Object({ image: t.String({ format: 'uuid' }) });

export const UsageSchema = t.Object({
  kind: t.Union([t.Literal('property'), t.Literal('room_type'), t.Literal('content_page')]),
  property_id: t.Nullable(t.String({ format: 'uuid', description: 'null when outside the token allow-list' })),
  room_type_id: t.Nullable(t.String({ format: 'uuid' })),
  content_page_id: t.Nullable(t.String({ format: 'uuid' })),
  position: t.Integer(),
  outside_grant: t.Boolean({ description: 'the usage sits on a property this token may not act on' }),
});

/** Beside a gallery refusal's key, per status, for the routes' `errorFields`. */
export const ImageInUseFields = {
  409: {
    usages: t.Array(UsageSchema, { description: 'with errors.qc.gallery_image_in_use: where the image is used' }),
  },
};
const FileFields = {
  file: t.String({ description: 'with gallery_not_an_image / gallery_image_too_large: the refused file' }),
  index: t.Integer({ description: 'its position in the request, from 0' }),
};
export const UploadRefusalFields = { 422: FileFields };
export const RegisterRefusalFields = {
  409: {
    image_id: t.Nullable(
      t.String({ format: 'uuid', description: 'with gallery_legacy_file_registered: the gallery image it is' }),
    ),
  },
  422: FileFields,
};
export const ImageNotFoundFields = {
  422: { image_id: t.String({ description: 'with errors.qc.gallery_image_not_found: the id as sent' }) },
};

export const ImageSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  url: t.String({ description: 'stable public URL, fetchable without authentication' }),
  content_type: t.String(),
  byte_size: t.Integer(),
  width: t.Integer(),
  height: t.Integer(),
  sha256: t.String(),
  file_name: t.String(),
  legacy_file_id: t.Nullable(t.String()),
  created_at: t.String({ format: 'date-time' }),
  usages: t.Array(UsageSchema),
});

export const UploadBody = t.Object({
  images: t.Files({ minItems: 1, description: 'one or more image files (JPEG, PNG, GIF, WebP), each up to 10 MiB' }),
});

export const RegisterBody = t.Object({
  // Dots alone (`.`, `..`) name the folder itself or its parent, never a file: refused like any other bad name.
  legacy_file_id: t.String({
    minLength: 1,
    maxLength: 200,
    pattern: '^(?![.]+$)[A-Za-z0-9._-]+$',
    description: 'letters, digits, `.`, `_` and `-`; not dots alone',
  }),
});

export const DeleteQuery = t.Object({
  force: t.Optional(t.Union([t.Literal('1'), t.Literal('0'), t.Literal('true'), t.Literal('false')])),
});

export const ImageIdsBody = t.Object({
  image_ids: t.Array(t.String({ format: 'uuid' }), {
    maxItems: 100,
    uniqueItems: true,
    description: 'gallery image ids in display order; replaces the current list',
  }),
});
