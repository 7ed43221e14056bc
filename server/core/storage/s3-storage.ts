import { S3Client } from 'bun';
import { assertSafeKey, type ObjectStorage } from './object-storage.ts';

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** Any S3-compatible store (AWS S3, MinIO, R2, ...) through Bun's built-in S3 client. */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(settings: S3Settings) {
    this.client = new S3Client(settings);
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertSafeKey(key);
    await this.client.write(key, bytes, { type: contentType });
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    assertSafeKey(key);
    const file = this.client.file(key);
    if (!(await file.exists())) return undefined;
    return new Uint8Array(await file.arrayBuffer());
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.delete(key);
  }
}
