import type { Principal } from '../core/auth/principal.ts';
import { sha256Hex } from '../core/auth/secrets.ts';
import { type Db, SqlState, sqlState, WriteOutcomeUnknown } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import { errorFields } from '../core/log.ts';
import { extensionOf, publicImageUrl } from '../core/media-url.ts';
import { recordEvent } from '../core/outbox.ts';
import { type ImageContent, inspectImage, MAX_FILES_PER_UPLOAD } from './image-content.ts';
import type { ImageRow } from './images.ts';
import { safeFileName } from './safe-file-name.ts';

interface Checked {
  externalId: string;
  storageKey: string;
  bytes: Uint8Array;
  content: ImageContent;
  fileName: string;
}

/**
 * Stores uploaded images: every file is checked by content first (nothing is stored when one fails), then
 * the bytes go to storage, then the rows are written in one transaction. A storage that refuses is 500
 * errors.qc.gallery_upload_failed: what was already stored is removed again and no row is written, so the
 * gallery never lists an image whose bytes are missing.
 */
export async function uploadImages(
  deps: Deps,
  principal: Principal,
  files: readonly File[],
  inTx: (tx: Db, rows: ImageRow[]) => Promise<void> = async () => {},
): Promise<ImageRow[]> {
  if (files.length > MAX_FILES_PER_UPLOAD) throw new ApiError('errors.qc.gallery_too_many_files');
  const checked: Checked[] = [];
  for (const [index, file] of files.entries()) {
    const sent = new Uint8Array(await file.arrayBuffer());
    const content = inspectImage(sent);
    if (content === 'not_an_image') throw new ApiError('errors.qc.gallery_not_an_image', { file: file.name, index });
    if (content === 'too_large') throw new ApiError('errors.qc.gallery_image_too_large', { file: file.name, index });
    const externalId = crypto.randomUUID();
    const storageKey = `gallery/${principal.customerId}/${externalId}.${content.extension}`;
    // Only the image is stored: bytes after its end (an HTML page appended to make a polyglot) are dropped.
    const bytes = sent.subarray(0, content.end);
    checked.push({ externalId, storageKey, bytes, content, fileName: safeFileName(file.name, content.extension) });
  }
  const stored: string[] = [];
  try {
    for (const c of checked) {
      await deps.storage.put(c.storageKey, c.bytes, c.content.contentType);
      stored.push(c.storageKey);
    }
  } catch (err) {
    deps.log.error('gallery storage refused an upload', { ...errorFields(err), storage: deps.storage.kind });
    await removeStored(deps, stored);
    throw new ApiError('errors.qc.gallery_upload_failed');
  }
  try {
    return await deps.db.tx(async (tx) => {
      const rows: ImageRow[] = [];
      for (const c of checked) {
        const [row] = await tx.sql<ImageRow>`
          insert into gallery_images (external_id, customer_id, storage_key, content_type, byte_size, width, height,
            sha256, file_name)
          values (${c.externalId}, ${principal.customerId}, ${c.storageKey}, ${c.content.contentType},
            ${c.bytes.byteLength}, ${c.content.width}, ${c.content.height}, ${sha256Hex(c.bytes)}, ${c.fileName})
          returning *`;
        if (!row) throw new Error('gallery insert returned no row');
        await recordCreated(deps, tx, row, 'upload');
        rows.push(row);
      }
      await inTx(tx, rows);
      return rows;
    });
  } catch (err) {
    // Cut off after its COMMIT was sent, the rows may be recorded (and a retry with the key replays them): their
    // bytes stay. An orphan blob, should it not have committed, is unreachable, as one removeStored fails on.
    if (!(err instanceof WriteOutcomeUnknown)) await removeStored(deps, stored);
    throw err;
  }
}

/**
 * Adds a file the legacy platform already stored for this account (`legacy/<customer>/<file id>` in the
 * same storage) to the gallery without copying it. Its content is checked like an upload's. The legacy
 * file stays the legacy platform's: deleting the gallery image never deletes it.
 */
export async function registerLegacyImage(
  deps: Deps,
  principal: Principal,
  legacyFileId: string,
  inTx: (tx: Db, row: ImageRow) => Promise<void> = async () => {},
): Promise<ImageRow> {
  const storageKey = `legacy/${principal.customerId}/${legacyFileId}`;
  let bytes: Uint8Array | undefined;
  try {
    bytes = await deps.storage.get(storageKey);
  } catch (err) {
    deps.log.error('gallery storage failed reading a legacy file', { ...errorFields(err), storage: deps.storage.kind });
    throw new ApiError('errors.qc.gallery_upload_failed');
  }
  if (!bytes) throw new ApiError('errors.qc.gallery_legacy_file_not_found');
  const content = inspectImage(bytes);
  if (content === 'not_an_image')
    throw new ApiError('errors.qc.gallery_not_an_image', { file: legacyFileId, index: 0 });
  if (content === 'too_large')
    throw new ApiError('errors.qc.gallery_image_too_large', { file: legacyFileId, index: 0 });
  // A legacy file is served as stored (it is not copied), so one with bytes after its image cannot be cleaned.
  if (content.end !== bytes.byteLength)
    throw new ApiError('errors.qc.gallery_not_an_image', { file: legacyFileId, index: 0 });
  try {
    return await deps.db.tx(async (tx) => {
      const [row] = await tx.sql<ImageRow>`
        insert into gallery_images (customer_id, storage_key, content_type, byte_size, width, height, sha256,
          file_name, legacy_file_id)
        values (${principal.customerId}, ${storageKey}, ${content.contentType}, ${bytes.byteLength}, ${content.width},
          ${content.height}, ${sha256Hex(bytes)}, ${legacyFileId}, ${legacyFileId})
        returning *`;
      if (!row) throw new Error('gallery insert returned no row');
      await recordCreated(deps, tx, row, 'legacy_file');
      await inTx(tx, row);
      return row;
    });
  } catch (err) {
    if (sqlState(err) !== SqlState.uniqueViolation) throw err;
    const [existing] = await deps.db.sql<{ external_id: string }>`
      select external_id from gallery_images where customer_id = ${principal.customerId} and legacy_file_id = ${legacyFileId}`;
    throw new ApiError('errors.qc.gallery_legacy_file_registered', { image_id: existing?.external_id ?? null });
  }
}

async function recordCreated(deps: Deps, tx: Deps['db'], row: ImageRow, source: 'upload' | 'legacy_file') {
  await recordEvent(tx, {
    type: 'gallery_image.created',
    customerId: row.customer_id,
    propertyId: null,
    data: {
      image_id: row.external_id,
      url: publicImageUrl(deps.config, row.external_id, extensionOf(row.content_type)),
      content_type: row.content_type,
      byte_size: row.byte_size,
      source,
    },
  });
}

async function removeStored(deps: Deps, keys: readonly string[]) {
  for (const key of keys) {
    try {
      await deps.storage.delete(key);
    } catch (err) {
      // An orphan blob is unreachable (the media route serves only recorded images); log it for cleanup.
      deps.log.warn('gallery could not remove a stored file after a failed upload', { ...errorFields(err), key });
    }
  }
}
