import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Log } from '../log.ts';
import type { Db } from './db.ts';
import { migrationFiles } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { removeOthers, removeTemplate, type TemplateWrite } from './pglite-template-files.ts';

/**
 * A first `npm start` on an empty data dir spent most of its time in PGlite's initdb and in applying every
 * migration (docs/performance.md, "Start"). Both give the same database every time, so a copy of the freshly
 * migrated, still empty data dir (about 45 MB) is kept in a cache folder: `npm install` prepares it
 * (scripts/prepare-pglite-template.ts, through this module), and a start that had to run initdb keeps one. The next
 * empty data dir takes it: moved into place (a copy when the data dir is on another file system), no initdb, and the
 * migrations still run and find nothing to do; that start then keeps a new one for the start after.
 *
 * The template's folder name is its key: a hash of the PGlite version, every migration file's name and text, and
 * the UTC month (migration 0820 creates the calendar's month partitions around the current date). Any change gives
 * another name, so a stale template is never found, only replaced. It is taken right after the migrations, before
 * signing keys or the demo are written: it holds no secret and nothing of one installation.
 *
 * Two processes may build it at once: each copies into a folder of its own and renames it into place (atomic), so
 * a reader finds a whole template or none; two starts may find the same one, and the one whose rename comes second
 * runs initdb. A template that fails to load (or lacks the migrations table) is deleted and the start runs initdb.
 * Nothing here may stop a start: a cache that cannot be written is logged and skipped.
 */

const WAL_SEGMENT = /^[0-9A-F]{24}$/;

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
   * Call once the migrations have been applied, before anything else writes: when this start ran initdb or moved
   * the template away, takes the next template into memory; `writeKeptTemplates()` writes it to the cache.
   */
  migrated(): Promise<void>;
}

/**
 * Opens the embedded database in `dir`; an empty or missing `dir` starts from the template keyed `key` in `cache.dir`
 * when there is one. `cache` undefined: never a template.
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
      const taken = take(template, dir);
      if (taken) {
        const db = await openPglite(dir);
        const [found] = await db.sql<{ table: string | null }>`select to_regclass('schema_migrations')::text as table`;
        // A moved template is gone from the cache: this start keeps the next one, as a start after initdb does.
        const migrated = taken === 'moved' ? () => keepTemplate(db, dir, cache.dir, template, log) : noop;
        if (found?.table) return { db, source: 'template', migrated };
        await db.close();
        throw new Error('the template has no schema_migrations table');
      }
    } catch (err) {
      log?.warn('embedded database template did not load; running initdb instead', {
        template,
        error: String(err),
      });
      // It was empty before this start: whatever the failed copy left is ours to remove.
      rmSync(dir, { recursive: true, force: true });
      removeTemplate(template);
    }
  }
  const db = await openPglite(dir);
  return { db, source: 'initdb', migrated: () => keepTemplate(db, dir, cache.dir, template, log) };
}

/**
 * For a data dir opened only to become the template (`npm install`: scripts/prepare-pglite-template.ts), migrated
 * and with nothing else written: closes it and renames its folder into place (`dir` must be on the cache's file
 * system), instead of writing a copy (creating 1500 files was 1.5-3 s of the install on the shared machine). A clean
 * shutdown leaves the start that takes it nothing to recover. When another process put a template there first, this
 * one is left where it is, for the caller to remove.
 */
export async function closeIntoTemplate(db: Db, dir: string, cache: { dir: string; key: string }): Promise<void> {
  await db.close();
  const template = templateFolder(cache);
  try {
    renameSync(dir, template);
  } catch (err) {
    if (!existsSync(template)) throw err;
    return;
  }
  removeOthers(cache.dir, template);
}

/**
 * Puts the template in place as the data dir: moved (one rename), or copied when the data dir is on another file
 * system. Creating its 1500 files was most of a start from a copy (1.2-3 s of a 4 s start on the shared 2-core
 * machine, where reading them all takes 60 ms); a rename creates none. Undefined when another start took it first.
 */
function take(template: string, dir: string): 'moved' | 'copied' | undefined {
  mkdirSync(dirname(dir), { recursive: true });
  // Empty (the caller checked): not every system renames a folder over an empty one.
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(template, dir);
    return 'moved';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code !== 'EXDEV') throw err;
  }
  cpSync(template, dir, { recursive: true, errorOnExist: true, force: false });
  return 'copied';
}

/** Templates taken in memory and not written yet, each with what to say when it cannot be written. */
const kept: { job: TemplateWrite; failed: (err: unknown) => void }[] = [];
const writing = new Set<Promise<void>>();

/**
 * Writes every template this process took and has not written, each from a worker thread, and settles once all
 * are on disk (never rejects: a failure is logged). A start calls it once its demo is out, and its shutdown: the
 * template is for the next empty data dir, while the 1500 files written during this start's demo slowed the demo
 * by a second and more on the shared 2-core machine.
 */
export async function writeKeptTemplates(): Promise<void> {
  for (const { job, failed } of kept.splice(0)) {
    const written = writeInWorker(job).catch(failed);
    writing.add(written);
    void written.finally(() => writing.delete(written));
  }
  await Promise.all(writing);
}

/** pglite-template-writer.ts in a worker thread (that file says why not on this one). */
function writeInWorker(job: TemplateWrite): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL('./pglite-template-writer.ts', import.meta.url).href);
    const settle = (error?: string) => {
      worker.terminate();
      if (error === undefined) resolve();
      else reject(new Error(error));
    };
    worker.onmessage = (event: MessageEvent<{ error?: string }>) => settle(event.data.error);
    worker.onerror = (event) => settle(event.message);
    worker.postMessage(job);
  });
}

/**
 * Takes the live data dir into memory, for `writeKeptTemplates()` to write to the cache later. After a checkpoint
 * every change is in the data files, and the read is synchronous: PGlite runs on this thread, so nothing writes
 * while it is taken. What it holds is what a process killed at that moment would leave (PGlite's own dumpDataDir
 * takes the same), recovered at the next start from a checkpoint with nothing after it. WAL segments outside the
 * checkpoint's (recycled ones, a third of the size) are left out, as PostgreSQL itself removes them.
 */
async function keepTemplate(db: Db, dir: string, cacheDir: string, template: string, log?: Log): Promise<void> {
  const failed = (err: unknown) =>
    log?.warn('could not keep the embedded database template (the next empty data dir runs initdb again)', {
      template,
      error: String(err),
    });
  let files: TemplateWrite['files'];
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
    return;
  }
  kept.push({ job: { template, cacheDir, files }, failed });
}

async function noop(): Promise<void> {}
