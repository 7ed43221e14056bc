/**
 * Run by `npm install` (postinstall, through scripts/postinstall-pglite-template.mjs, which bounds it in time and
 * turns any failure into a warning): builds the embedded database's template, the freshly migrated database, where
 * and under the key `npm start` looks for it (server/core/db/pglite-template.ts), so the first start of a checkout
 * copies it instead of running PGlite's initdb and every migration (issue 27: ~4.3 s to /healthz without it).
 *
 * It is the start's own path: an empty data dir opened from the template cache and migrated; then, closed, the data
 * dir itself is renamed into place. It is a `*.tmp` folder inside the cache folder, so one left by a killed install
 * is removed as abandoned by a later one.
 * Nothing to do when the template of this key is there, or the environment turns it off. Prints one line when it
 * built one; on failure one line on stderr and exit code 1.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseConfig } from '../server/core/config.ts';
import { migrate } from '../server/core/db/migrate.ts';
import {
  closeIntoTemplate,
  currentTemplateKey,
  openPgliteFromTemplate,
  templateFolder,
} from '../server/core/db/pglite-template.ts';
import type { Log } from '../server/core/log.ts';

const started = performance.now();
let problem: string | undefined;
const log: Log = {
  info() {},
  warn: (msg, fields) => {
    problem = `${msg}: ${fields?.error ?? ''}`;
  },
  error: (msg, fields) => {
    problem = `${msg}: ${fields?.error ?? ''}`;
  },
};

try {
  const dir = parseConfig(process.env).pgliteTemplateDir;
  if (dir) {
    const cache = { dir, key: currentTemplateKey() };
    if (!existsSync(templateFolder(cache))) {
      const data = join(dir, `install-${process.pid}-${randomUUID()}.tmp`);
      await mkdir(data, { recursive: true });
      try {
        const opened = await openPgliteFromTemplate(join(data, 'pglite'), cache, log);
        await migrate(opened.db);
        // Also when another install's template appeared meanwhile and this open took it: it goes back.
        await closeIntoTemplate(opened.db, join(data, 'pglite'), cache);
      } finally {
        await rm(data, { recursive: true, force: true });
      }
      // Another install may have renamed its copy into place first: either way there is one now, or there is not.
      if (!existsSync(templateFolder(cache))) throw new Error(problem ?? 'no template was written');
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const where = relative(process.cwd(), dir);
      console.log(
        `qc: prepared the embedded database for the first npm start in ${seconds} s (${where.startsWith('..') ? dir : where})`,
      );
    }
  }
} catch (err) {
  console.error(String(err instanceof Error ? err.message : err).split('\n')[0]);
  process.exit(1);
}
