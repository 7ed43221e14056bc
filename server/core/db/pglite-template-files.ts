import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The embedded database template's folders on disk (server/core/db/pglite-template.ts): writing one, removing one.
 * Synchronous and free of PGlite, so the worker that writes a template (pglite-template-writer.ts) loads only this.
 */

const TEMPLATE = /^pglite-[0-9a-f]{32}$/;
/** A temp folder older than this belongs to a process that died while writing it. */
const ABANDONED_MS = 10 * 60_000;

/** A data dir taken in memory: its folders (`data` undefined) and files, paths relative to it. */
export interface TemplateWrite {
  template: string;
  cacheDir: string;
  files: { path: string; data: Uint8Array | undefined }[];
}

/**
 * Writes the template into a folder of its own, then renames it into place (atomic: a reader finds a whole
 * template or none; when another process renamed its copy first, this one is not needed), then removes the
 * templates of other keys.
 */
export function writeTemplate({ template, cacheDir, files }: TemplateWrite): void {
  const temp = `${template}.${process.pid}-${randomUUID()}.tmp`;
  try {
    mkdirSync(temp, { recursive: true });
    for (const { path, data } of files) {
      if (!data) mkdirSync(join(temp, path), { recursive: true });
      else {
        mkdirSync(dirname(join(temp, path)), { recursive: true });
        writeFileSync(join(temp, path), data);
      }
    }
    try {
      renameSync(temp, template);
    } catch (err) {
      if (!existsSync(template)) throw err;
      rmSync(temp, { recursive: true, force: true });
    }
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    throw err;
  }
  removeOthers(cacheDir, template);
}

/** Templates of other keys can never be used again; copies of dead writers neither. */
export function removeOthers(cacheDir: string, keep: string): void {
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (path === keep) continue;
    if (TEMPLATE.test(name)) removeTemplate(path);
    else if (name.endsWith('.tmp') && Date.now() - mtime(path) > ABANDONED_MS)
      rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Renamed away first, then deleted: a start taking it at that moment fails on a missing path (and runs initdb)
 * instead of taking half of it without noticing.
 */
export function removeTemplate(template: string): void {
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
