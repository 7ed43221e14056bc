import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_ONLY, EMBEDDED_ENGINE, PRIVATE_ENGINES } from './topology-suite-files.ts';

const ROOT = join(import.meta.dir, '..');
const filesOf = (patterns: string[]) =>
  patterns.flatMap((pattern) =>
    [...new Bun.Glob(pattern).scanSync({ cwd: ROOT })].filter((f) => f.endsWith('.test.ts')),
  );
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const READS_THE_PASS_ENGINES = /process\.env\.(DATABASE_URL|DATABASE_SESSION_URL|REDIS_URL)\b/;

describe('the files the suite on the production topology leaves out', () => {
  it('each name at least one test file: a renamed file is run again instead of silently dropped from the list', () => {
    for (const pattern of [...EMBEDDED_ENGINE, ...PRIVATE_ENGINES, ...CODE_ONLY]) {
      expect({ pattern, files: filesOf([pattern]).length > 0 }).toEqual({ pattern, files: true });
    }
  });

  it('never read the pass engines’ URLs from the environment', () => {
    for (const file of filesOf([...EMBEDDED_ENGINE, ...PRIVATE_ENGINES, ...CODE_ONLY])) {
      expect({ file, reads: READS_THE_PASS_ENGINES.test(text(file)) }).toEqual({ file, reads: false });
    }
  });

  it('start their server processes with DATABASE_URL and REDIS_URL of their own, never through the shared harness', () => {
    for (const file of filesOf(PRIVATE_ENGINES.filter((p) => !p.startsWith('scripts/topology/')))) {
      const source = text(file);
      expect({ file, database: /DATABASE_URL: /.test(source), redis: /REDIS_URL: /.test(source) }).toEqual({
        file,
        database: true,
        redis: true,
      });
      expect({ file, harness: source.includes('testing/harness.ts') }).toEqual({ file, harness: false });
    }
  });
});
