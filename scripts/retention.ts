/**
 * `npm run retention`: one retention pass now, with the settings of the environment (QC_RETENTION_*,
 * QC_INCIDENT_RETENTION_DAYS; docs/operations.md, "Retention"), printing what it removed per table and how
 * long each step took. The service runs the same pass every QC_RETENTION_EVERY_MINUTES; this is for an operator
 * who wants it now (after lowering a setting, or with QC_RETENTION_EVERY_MINUTES=0 and a scheduler of their own).
 */
import { type Config, ConfigError, parseConfig } from '../server/core/config.ts';
import { openDb } from '../server/core/db/open.ts';
import { runRetention } from '../server/retention/retention-pass.ts';

let config: Config;
try {
  config = parseConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  // A wrong setting is the operator's to fix: one line naming it and exit 1, as the service's start says it.
  console.error(`retention: ${err.message}`);
  process.exit(1);
}
const db = await openDb(config);
try {
  const { step_ms, ...counts } = await runRetention(db, config, new Date());
  for (const [table, n] of Object.entries(counts)) console.log(`${table.padEnd(28)} ${n}`);
  console.log(
    `\nmilliseconds per step: ${Object.entries(step_ms)
      .map(([step, ms]) => `${step} ${ms}`)
      .join(', ')}`,
  );
} finally {
  await db.close();
}
