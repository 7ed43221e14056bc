import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** PostgreSQL when DATABASE_URL is set, else embedded PGlite kept under the data dir. */
export async function openDb(config: Config): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, { timeoutMs: config.dbTimeoutMs });
  return openPglite(join(config.dataDir, 'pglite'));
}
