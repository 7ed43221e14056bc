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
