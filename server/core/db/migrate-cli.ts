import { parseConfig } from '../config.ts';
import { migrate } from './migrate.ts';
import { openDb } from './open.ts';

const config = parseConfig(process.env);
const db = await openDb(config);
const applied = await migrate(db);
console.log(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
await db.close();
