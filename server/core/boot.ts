import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PropertyActors } from '../../actors/property-actors.ts';
import { SigningKeys } from './auth/signing-keys.ts';
import { randomSecret } from './auth/secrets.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { openDb } from './db/open.ts';
import type { Deps } from './deps.ts';
import { createLog, type Log } from './log.ts';

export interface BootOptions {
  clock?: Clock;
  log?: Log;
  /** An already-open database (tests share one pool per process). */
  db?: Db;
}

/** Opens the database, applies migrations, loads signing keys: everything Deps holds, ready to serve. */
export async function createDeps(config: Config, options: BootOptions = {}): Promise<Deps> {
  const log = options.log ?? createLog(config.logLevel);
  const db = options.db ?? (await openDb(config));
  const applied = await migrate(db);
  if (applied.length) log.info('migrations applied', { applied });
  const keys = new SigningKeys(db);
  await keys.load();
  return { config, db, clock: options.clock ?? systemClock, log, keys, actors: new PropertyActors(db) };
}

/** QC_OPERATOR_TOKEN, or one generated on first start and kept in the data dir. */
export function operatorToken(config: Config): { token: string; generated: boolean } {
  if (config.operatorToken) return { token: config.operatorToken, generated: false };
  const file = join(config.dataDir, 'operator-token');
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(config.dataDir, { recursive: true });
  const token = `qcop_${randomSecret()}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, generated: true };
}
