import type { ObjectStorage } from '../core/storage/object-storage.ts';
import type { Reply, TestApp } from '../testing/harness.ts';

/** A real 1x1 PNG and a real 1x1 GIF: the bytes a camera-less test can carry. */
export const PNG_1X1 = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
export const GIF_1X1 = Uint8Array.from(atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'), (c) =>
  c.charCodeAt(0),
);

/** A 3x2 JPEG and WebP as Chromium's canvas encodes them (with an ICC profile): structures beyond the minimal. */
export const JPEG_3X2 = Uint8Array.from(
  atob(
    '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABh' +
      'Y3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
      'AAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAAB' +
      'UAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAA' +
      'AAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9Y' +
      'WVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAM' +
      'ZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYI' +
      'DAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQU' +
      'FBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/' +
      'xAAbEAEAAAcAAAAAAAAAAAAAAAAAAgMEBTR0s//EABUBAQEAAAAAAAAAAAAAAAAAAAcI/8QAHhEAAAQHAAAAAAAAAAAAAAAAAAEC' +
      'AwQFMjVxc7L/2gAMAwEAAhEDEQA/AJ3esyXrU/GAAatUJwQrOT22G1o5If/Z',
  ),
  (c) => c.charCodeAt(0),
);
export const WEBP_3X2 = Uint8Array.from(
  atob(
    'UklGRjwCAABXRUJQVlA4WAoAAAAgAAAAAgAAAQAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABh' +
      'Y3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
      'AAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAAB' +
      'UAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAA' +
      'AAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9Y' +
      'WVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAM' +
      'ZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDggTgAAADACAJ0BKgMAAgAAwBIlqAJ0ugH4AAMh' +
      'Bv1IAP7vlkvzv/7Ca6b/0dLpdfZ/HGb/r9kv/zQX/Yy36uf3N/2St80F/2Mt+rn9zf/2PIAAAA==',
  ),
  (c) => c.charCodeAt(0),
);

export interface UploadFile {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/** POST /v1/qc/gallery as multipart/form-data with one `images` part per file. */
export async function uploadImages(
  t: TestApp,
  token: string,
  files: readonly UploadFile[],
  headers: Record<string, string> = {},
): Promise<Reply> {
  const form = new FormData();
  for (const f of files) form.append('images', new File([f.bytes], f.name, { type: f.type ?? 'image/png' }));
  const res = await t.app.handle(
    new Request('http://localhost/v1/qc/gallery', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...headers },
      body: form,
    }),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
}

/** POST /v1/qc/gallery/register: adds a file the legacy platform stored for the token's account. */
export function registerLegacyFile(t: TestApp, token: string, legacyFileId: string): Promise<Reply> {
  return t.request('POST', '/v1/qc/gallery/register', { token, body: { legacy_file_id: legacyFileId } });
}

/** An in-memory store that can be told to refuse: after `refuseAfter(n)`, n more puts succeed, then none. */
export class MemoryStorage implements ObjectStorage {
  readonly kind = 'test' as const;
  readonly files = new Map<string, Uint8Array>();
  private accepting = Number.POSITIVE_INFINITY;

  refuseAfter(puts: number): void {
    this.accepting = puts;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    if (this.accepting <= 0) throw new Error('storage refused: quota exceeded');
    this.accepting -= 1;
    this.files.set(key, bytes);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.files.get(key);
  }

  async delete(key: string): Promise<void> {
    this.files.delete(key);
  }
}
