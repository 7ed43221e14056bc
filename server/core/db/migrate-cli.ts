import { parseConfig } from '../config.ts';
import { migrate } from './migrate.ts';
import { openDb, openMigrationDb } from './open.ts';

const config = parseConfig(process.env);
const db = await openDb(config);
const migration = openMigrationDb(config, db);
const applied = await migrate(migration.db);
await migration.done();
console.log(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
await db.close();
