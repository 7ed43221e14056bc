import { type Config, parseConfig } from '../server/core/config.ts';

/**
 * The service configuration a benchmark runs its in-process service with: silent, no demo seeded on an empty
 * database, and the statement bound `npm run bench` sets (on a loaded machine a statement can wait past the
 * 2 s default); `env` adds the benchmark's own settings (database, operator token, data dir).
 */
export function benchConfig(env: Record<string, string | undefined>): Config {
  return parseConfig({
    QC_DB_TIMEOUT_MS: process.env.QC_DB_TIMEOUT_MS,
    // Every process of one database seals signing keys with the same key (npm run bench sets one for the run).
    QC_KEY_ENCRYPTION_KEY: process.env.QC_KEY_ENCRYPTION_KEY,
    QC_LOG_LEVEL: 'silent',
    QC_DEMO_ON_EMPTY: '0',
    ...env,
  });
}
