import { join } from 'node:path';
import type { Config } from '../config.ts';
import { FilesystemStorage } from './filesystem-storage.ts';
import type { ObjectStorage } from './object-storage.ts';
import { S3Storage } from './s3-storage.ts';

/** The configured store: S3-compatible when QC_STORAGE_S3_BUCKET is set, the data directory otherwise. */
export function openStorage(config: Config): ObjectStorage {
  if (config.s3) return new S3Storage(config.s3);
  return new FilesystemStorage(join(config.dataDir, 'storage'));
}
