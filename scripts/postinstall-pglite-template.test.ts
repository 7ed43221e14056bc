import { afterAll, describe, expect, it } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../server/core/config.ts';
import { migrate } from '../server/core/db/migrate.ts';
import { openDbForStart } from '../server/core/db/open.ts';
import { currentTemplateKey } from '../server/core/db/pglite-template.ts';
import type { Log } from '../server/core/log.ts';

/**
 * Issue 27: `npm install` prepares the migrated embedded database so the first `npm start` of a checkout copies it
 * instead of running PGlite's initdb and every migration. These run the install's step as package.json declares it.
 */
const root = join(import.meta.dir, '..');
const temp = mkdtempSync(join(tmpdir(), 'qc-postinstall-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function run(command: string[], env: Record<string, string | undefined>) {
  const proc = Bun.spawnSync(command, { cwd: root, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  return { code: proc.exitCode, out: `${proc.stdout.toString()}${proc.stderr.toString()}`.trim() };
}

describe('npm install (postinstall)', () => {
  it('prepares the template the first start then opens: no initdb, no migration left to apply', async () => {
    const templates = join(temp, 'templates');
    const installed = run(['npm', 'run', '--silent', 'postinstall'], { QC_PGLITE_TEMPLATE_DIR: templates });
    expect(installed.code).toBe(0);
    expect(readdirSync(templates)).toEqual([`pglite-${currentTemplateKey()}`]);

    const messages: string[] = [];
    const log: Log = { info: (msg) => messages.push(msg), warn: (msg) => messages.push(msg), error() {} };
    const config = parseConfig({ QC_DATA_DIR: join(temp, 'data'), QC_PGLITE_TEMPLATE_DIR: templates });
    const { db } = await openDbForStart(config, log);
    try {
      expect(messages).toEqual(['embedded database started from its template']);
      expect(await migrate(db)).toEqual([]);
    } finally {
      await db.close();
    }
  }, 180_000);

  it('warns in one line and succeeds when the template cannot be written', () => {
    const file = join(temp, 'a-file');
    writeFileSync(file, '');
    const installed = run(['node', 'scripts/postinstall-pglite-template.mjs'], {
      QC_PGLITE_TEMPLATE_DIR: join(file, 'templates'),
    });
    expect(installed.code).toBe(0);
    expect(installed.out).toMatch(/^qc: warning: could not prepare the embedded database \(.*ENOTDIR.*\); the first/);
    expect(installed.out.split('\n')).toHaveLength(1);
  }, 60_000);

  it('skips in one line and succeeds when bun is not on the PATH', () => {
    // Node alone on the PATH: the install's step runs under npm, which has node whatever else is missing.
    const bin = join(temp, 'bin-without-bun');
    mkdirSync(bin);
    symlinkSync(Bun.which('node') as string, join(bin, 'node'));
    const installed = run([join(bin, 'node'), 'scripts/postinstall-pglite-template.mjs'], {
      PATH: bin,
      QC_PGLITE_TEMPLATE_DIR: join(temp, 'never-written'),
    });
    expect(installed).toEqual({
      code: 0,
      out: 'qc: warning: skipped preparing the embedded database (bun not found); the first npm start will create it (a few seconds)',
    });
    expect(existsSync(join(temp, 'never-written'))).toBe(false);
  });
});
