import { type Config, parseConfig } from '../server/core/config.ts';

/**
 * The service configuration a benchmark runs its in-process service with: every `QC_*` setting of the environment
 * (so a setting can be varied for a run, `QC_ACTOR_YIELD_MS=0 npm run bench:fairness`; `npm run bench` sets the
 * statement bound and the key that seals signing keys, shared by every process of one database), then silent, no
 * demo seeded on an empty database, and `env`, the benchmark's own settings (database, operator token, data dir).
 */
export function benchConfig(env: Record<string, string | undefined>): Config {
  const settings = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('QC_')));
  return parseConfig({ ...settings, QC_LOG_LEVEL: 'silent', QC_DEMO_ON_EMPTY: '0', ...env });
}
