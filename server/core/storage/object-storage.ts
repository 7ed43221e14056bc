/**
 * Where uploaded files live (the gallery's images): one small interface, so the filesystem default and an
 * S3-compatible store are interchangeable, and a test can hand in a storage that refuses.
 * Keys are relative paths of `[A-Za-z0-9._/-]` chosen by the service, never by a client.
 */
export interface ObjectStorage {
  readonly kind: 'filesystem' | 's3' | 'test';
  /** Stores the bytes under `key`, replacing what was there; rejects when the store refuses. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes under `key`, or undefined when nothing is stored there. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** Refuses keys that could leave the store's root (`..`, absolute paths, odd characters). */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`unsafe storage key: ${key}`);
  }
}
