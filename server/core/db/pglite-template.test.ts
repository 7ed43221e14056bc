import { afterAll, describe, expect, it } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { openPgliteFromTemplate, templateKey, writeKeptTemplates } from './pglite-template.ts';

const root = mkdtempSync(join(tmpdir(), 'qc-pglite-template-'));
const opened: Db[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
  rmSync(root, { recursive: true, force: true });
});
let n = 0;
const fresh = () => join(root, `data-${++n}`, 'pglite');
async function open(cache: { dir: string; key: string } | undefined) {
  const result = await openPgliteFromTemplate(fresh(), cache);
  opened.push(result.db);
  return result;
}
/** Stands in for the migrations (the template must hold their table) and marks the database it was taken from. */
async function migratedWithMarker(db: Db) {
  await db.query('create table schema_migrations (name text)');
  await db.query('create table marker (x int)');
}
const hasTable = async (db: Db, table: string) =>
  (await db.sql<{ t: string | null }>`select to_regclass(${table})::text as t`)[0]?.t === table;

describe('the embedded database template', () => {
  it('starts an empty data dir from the migrated database the first start kept: the migrations find nothing to do', async () => {
    const cache = { dir: join(root, 'cache-real'), key: 'a'.repeat(32) };
    const first = await open(cache);
    expect(first.source).toBe('initdb');
    expect((await migrate(first.db)).length).toBeGreaterThan(30);
    await first.migrated();
    await writeKeptTemplates();
    expect(readdirSync(cache.dir)).toEqual([`pglite-${cache.key}`]);

    const second = await open(cache);
    expect(second.source).toBe('template');
    expect(await migrate(second.db)).toEqual([]);
    // Still empty: nothing of the first start's data (it has none yet, the template is taken before any).
    expect((await second.db.sql<{ n: number }>`select count(*)::int as n from signing_keys`)[0]?.n).toBe(0);
  }, 300_000);

  it('is kept whole when two starts build it at once, and a data dir that is not empty never uses it', async () => {
    const cache = { dir: join(root, 'cache-race'), key: 'b'.repeat(32) };
    const [one, two] = await Promise.all([open(cache), open(cache)]);
    expect([one?.source, two?.source]).toEqual(['initdb', 'initdb']);
    for (const db of [one?.db, two?.db]) if (db) await migratedWithMarker(db);
    await Promise.all([one?.migrated(), two?.migrated()]);
    await writeKeptTemplates();
    expect(readdirSync(cache.dir)).toEqual([`pglite-${cache.key}`]);

    const third = await open(cache);
    expect(third.source).toBe('template');
    expect(await hasTable(third.db, 'marker')).toBe(true);

    const dir = join(root, 'existing', 'pglite');
    const existing = await openPgliteFromTemplate(dir, undefined);
    await existing.db.close();
    const reopened = await openPgliteFromTemplate(dir, cache);
    opened.push(reopened.db);
    expect(reopened.source).toBe('existing');
    expect(await hasTable(reopened.db, 'marker')).toBe(false);
  }, 300_000);

  it('is moved into the data dir that takes it, and that start keeps the next one for the start after', async () => {
    const cache = { dir: join(root, 'cache-moved'), key: 'f'.repeat(32) };
    const first = await open(cache);
    await migratedWithMarker(first.db);
    await first.migrated();
    await writeKeptTemplates();

    const second = await open(cache);
    expect(second.source).toBe('template');
    expect(readdirSync(cache.dir)).toEqual([]);
    await second.migrated();
    await writeKeptTemplates();
    expect(readdirSync(cache.dir)).toEqual([`pglite-${cache.key}`]);

    const third = await open(cache);
    expect(third.source).toBe('template');
    expect(await hasTable(third.db, 'marker')).toBe(true);
  }, 300_000);

  it('is never used under another key (a changed migration list), and the stale one is replaced', async () => {
    const dir = join(root, 'cache-stale');
    const old = await open({ dir, key: 'c'.repeat(32) });
    await migratedWithMarker(old.db);
    await old.migrated();
    await writeKeptTemplates();

    const changed = await open({ dir, key: 'd'.repeat(32) });
    expect(changed.source).toBe('initdb');
    expect(await hasTable(changed.db, 'marker')).toBe(false);
    await changed.migrated();
    await writeKeptTemplates();
    expect(readdirSync(dir)).toEqual([`pglite-${'d'.repeat(32)}`]);
  }, 300_000);

  it('that does not hold a migrated database is deleted, and the start runs initdb instead', async () => {
    const cache = { dir: join(root, 'cache-broken'), key: 'e'.repeat(32) };
    const template = join(cache.dir, `pglite-${cache.key}`);
    await Bun.write(join(template, 'PG_VERSION'), 'not a data dir');
    const started = await open(cache);
    expect(started.source).toBe('initdb');
    expect(existsSync(template)).toBe(false);
    expect((await started.db.sql<{ one: number }>`select 1 as one`)[0]?.one).toBe(1);
  }, 300_000);

  it('key changes with any migration file, the PGlite version and the month', () => {
    const a = { name: '0001_a.sql', text: 'create table a (x int);' };
    const b = { name: '0002_b.sql', text: 'create table b (x int);' };
    const migrations = [a, b];
    const now = new Date('2026-11-26T03:00:00Z');
    const key = templateKey(migrations, now, '0.5.16');
    expect(templateKey(structuredClone(migrations), new Date('2026-11-30T23:59:59Z'), '0.5.16')).toBe(key);
    const changed = [
      templateKey([a], now, '0.5.16'),
      templateKey([...migrations, { name: '0003_c.sql', text: '' }], now, '0.5.16'),
      templateKey([a, { name: '0002_b.sql', text: 'create table b (y int);' }], now, '0.5.16'),
      templateKey([a, { name: '0003_b.sql', text: 'create table b (x int);' }], now, '0.5.16'),
      templateKey(migrations, now, '0.5.17'),
      templateKey(migrations, new Date('2026-12-01T00:00:00Z'), '0.5.16'),
    ];
    for (const other of changed) expect(other).not.toBe(key);
  });
});
