import { createHash, randomUUID } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Log } from '../log.ts';
import type { Db } from './db.ts';
import { migrationFiles } from './migrate.ts';
import { openPglite } from './pglite.ts';

/**
 * A first `npm start` on an empty data dir spent most of its time in PGlite's initdb and in applying every
 * migration (docs/performance.md, "Start-up"). Both give the same database every time, so the first start keeps a
 * copy of the freshly migrated, still empty data dir (about 45 MB) in a cache folder, and the next empty data dir
 * starts as a copy of it: no initdb, and the migrations still run and find nothing to do.
 *
 * The template's folder name is its key: a hash of the PGlite version, every migration file's name and text, and
 * the UTC month (migration 0820 creates the calendar's month partitions around the current date). Any change gives
 * another name, so a stale template is never found, only replaced. It is taken right after the migrations, before
 * signing keys or the demo are written: it holds no secret and nothing of one installation.
 *
 * Two processes may build it at once: each copies into a folder of its own and renames it into place (atomic), so
 * a reader finds a whole template or none. A template that fails to load (or lacks the migrations table) is
 * deleted and the start runs initdb. Nothing here may stop a start: a cache that cannot be written is logged and
 * skipped.
 */

const TEMPLATE = /^pglite-[0-9a-f]{32}$/;
const WAL_SEGMENT = /^[0-9A-F]{24}$/;
/** A temp file older than this belongs to a process that died while writing it. */
const ABANDONED_MS = 10 * 60_000;

/** What a fresh, migrated database depends on: PGlite's version, the migrations, and the month. */
export function templateKey(migrations: { name: string; text: string }[], now: Date, pgliteVersion: string): string {
  const hash = createHash('sha256');
  hash.update(`pglite ${pgliteVersion}\0month ${now.toISOString().slice(0, 7)}\0`);
  for (const { name, text } of migrations) hash.update(`${name}\0${text}\0`);
  return hash.digest('hex').slice(0, 32);
}

function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  return JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')).version;
}

/** The key of this checkout's migrations and PGlite, now. */
export function currentTemplateKey(now = new Date()): string {
  return templateKey(migrationFiles(), now, pgliteVersion());
}

/** Where the template keyed `key` is (or will be) in the cache folder `dir`. */
export function templateFolder(cache: { dir: string; key: string }): string {
  return join(cache.dir, `pglite-${cache.key}`);
}

export interface OpenedPglite {
  db: Db;
  /** Where the database came from: the template, PGlite's initdb, or an existing data dir. */
  source: 'template' | 'initdb' | 'existing';
  /**
   * Call once the migrations have been applied, before anything else writes: when this start had to run initdb,
   * takes the template; `written` settles once it is on disk (never rejects: a failure is logged).
   */
  migrated(): Promise<{ written: Promise<void> }>;
}

/**
 * Opens the embedded database in `dir`; an empty or missing `dir` starts as a copy of the template keyed `key` in
 * `cache.dir` when there is one. `cache` undefined: never a template.
 */
export async function openPgliteFromTemplate(
  dir: string,
  cache: { dir: string; key: string } | undefined,
  log?: Log,
): Promise<OpenedPglite> {
  const empty = !existsSync(dir) || readdirSync(dir).length === 0;
  if (!empty || !cache) return { db: await openPglite(dir), source: empty ? 'initdb' : 'existing', migrated: noop };
  const template = templateFolder(cache);
  if (existsSync(template)) {
    try {
      cpSync(template, dir, { recursive: true, errorOnExist: true, force: false });
      const db = await openPglite(dir);
      const [found] = await db.sql<{ table: string | null }>`select to_regclass('schema_migrations')::text as table`;
      if (found?.table) return { db, source: 'template', migrated: noop };
      await db.close();
      throw new Error('the template has no schema_migrations table');
    } catch (err) {
      log?.warn('embedded database template did not load; running initdb instead', {
        template,
        error: String(err),
      });
      // It was empty before this start: whatever the failed copy left is ours to remove.
      rmSync(dir, { recursive: true, force: true });
      remove(template);
    }
  }
  const db = await openPglite(dir);
  return { db, source: 'initdb', migrated: () => keepTemplate(db, dir, cache.dir, template, log) };
}

const writing = new Set<Promise<void>>();

/** Settles once every template this process is writing is on disk (a shutdown waits for it: the write is short). */
export async function templateWrites(): Promise<void> {
  await Promise.all(writing);
}

/**
 * Takes the live data dir into memory and writes it to the cache in the background (a start does not wait for the
 * disk). After a checkpoint every change is in the data files, and the read is synchronous: PGlite runs on this
 * thread, so nothing writes while it is taken. What it holds is what a process killed at that moment would leave
 * (PGlite's own dumpDataDir takes the same), recovered at the next start from a checkpoint with nothing after it.
 * WAL segments outside the checkpoint's (recycled ones, a third of the size) are left out, as PostgreSQL itself
 * removes them.
 */
async function keepTemplate(
  db: Db,
  dir: string,
  cacheDir: string,
  template: string,
  log?: Log,
): Promise<{ written: Promise<void> }> {
  const failed = (err: unknown) =>
    log?.warn('could not keep the embedded database template (the next empty data dir runs initdb again)', {
      template,
      error: String(err),
    });
  let files: { path: string; data: Buffer | undefined }[];
  try {
    await db.query('checkpoint');
    const [wal] = await db.sql<{ first: string; last: string }>`
      select pg_walfile_name(redo_lsn) as first, pg_walfile_name(pg_current_wal_insert_lsn()) as last
      from pg_control_checkpoint()`;
    if (!wal) throw new Error('no checkpoint');
    // Empty folders too: PostgreSQL does not start without pg_tblspc, pg_notify and the like.
    files = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter(
        (e) =>
          e.isDirectory() || (e.isFile() && !(WAL_SEGMENT.test(e.name) && (e.name < wal.first || e.name > wal.last))),
      )
      .map((e) => {
        const path = join(e.parentPath, e.name);
        return { path: relative(dir, path), data: e.isFile() ? readFileSync(path) : undefined };
      });
  } catch (err) {
    failed(err);
    return { written: Promise.resolve() };
  }
  const temp = `${template}.${process.pid}-${randomUUID()}.tmp`;
  const written = (async () => {
    await mkdir(temp, { recursive: true });
    for (const { path, data } of files) {
      if (!data) await mkdir(join(temp, path), { recursive: true });
      else {
        await mkdir(dirname(join(temp, path)), { recursive: true });
        await writeFile(join(temp, path), data);
      }
    }
    try {
      // Atomic; when another start renamed its copy first, this one is not needed.
      await rename(temp, template);
    } catch (err) {
      if (!existsSync(template)) throw err;
      await rm(temp, { recursive: true, force: true });
    }
    removeOthers(cacheDir, template);
  })().catch(async (err) => {
    await rm(temp, { recursive: true, force: true }).catch(() => {});
    failed(err);
  });
  writing.add(written);
  void written.finally(() => writing.delete(written));
  return { written };
}

/** Templates of other keys can never be used again; copies of dead writers neither. */
function removeOthers(cacheDir: string, keep: string): void {
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (path === keep) continue;
    if (TEMPLATE.test(name)) remove(path);
    else if (name.endsWith('.tmp') && Date.now() - mtime(path) > ABANDONED_MS)
      rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Renamed away first, then deleted: a start copying it at that moment fails on a missing path (and runs initdb)
 * instead of copying half of it without noticing.
 */
function remove(template: string): void {
  const doomed = `${template}.${randomUUID()}.removing.tmp`;
  try {
    renameSync(template, doomed);
  } catch {
    return;
  }
  rmSync(doomed, { recursive: true, force: true });
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

async function noop(): Promise<{ written: Promise<void> }> {
  return { written: Promise.resolve() };
}
