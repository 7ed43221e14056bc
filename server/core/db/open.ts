import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Log } from '../log.ts';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { currentTemplateKey, type OpenedPglite, openPgliteFromTemplate } from './pglite-template.ts';
import { openPostgres } from './postgres.ts';

/** PostgreSQL when DATABASE_URL is set, else embedded PGlite kept under the data dir. */
export async function openDb(config: Config, log?: Log): Promise<Db> {
  if (config.databaseUrl)
    return openPostgres(config.databaseUrl, {
      timeoutMs: config.dbTimeoutMs,
      sessionUrl: config.databaseSessionUrl,
      onReplaced: () =>
        log?.warn('database pool replaced: every statement failed while a fresh connection answered', {
          replace_after_ms: 2 * config.dbTimeoutMs,
        }),
    });
  return openPglite(join(config.dataDir, 'pglite'));
}

/**
 * `openDb` for a service start: an empty embedded data dir starts from the template of a freshly migrated
 * database when there is one (server/core/db/pglite-template.ts). Call `migrated()` once the migrations have run:
 * a start that ran initdb or moved the template away takes the next one then (`writeKeptTemplates()` writes it).
 */
export async function openDbForStart(config: Config, log: Log): Promise<Pick<OpenedPglite, 'db' | 'migrated'>> {
  if (config.databaseUrl) return { db: await openDb(config, log), migrated: async () => {} };
  const cache = config.pgliteTemplateDir ? { dir: config.pgliteTemplateDir, key: currentTemplateKey() } : undefined;
  const opened = await openPgliteFromTemplate(join(config.dataDir, 'pglite'), cache, log);
  if (opened.source === 'template') log.info('embedded database started from its template', { dir: cache?.dir });
  return opened;
}

/**
 * Where migrations run: the session URL when DATABASE_URL is a transaction pooler (a migration is one long
 * transaction under a session's eye, not a pooler's query_timeout), else the service's own database.
 * `done()` closes what was opened for it.
 */
export function openMigrationDb(config: Config, db: Db): { db: Db; done(): Promise<void> } {
  if (!config.databaseSessionUrl) return { db, done: async () => {} };
  const session = openPostgres(config.databaseSessionUrl, { max: 1, timeoutMs: config.dbTimeoutMs });
  return { db: session, done: () => session.close() };
}
