import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every `QC_*` variable the code reads is named in a guide: the service's own in docs/operations.md (its
 * Configuration table), those of the tests and tools in docs/development.md. QC_TEST_EMBEDDED and QC_TOPOLOGY_POOLER
 * were read and documented nowhere.
 */
const ROOT = join(import.meta.dir, '..');
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
// Our code only: installed packages and vendored copies of others' read their own variables.
const filesOf = (pattern: string) =>
  [...new Bun.Glob(pattern).scanSync({ cwd: ROOT })].filter(
    (file) => !file.includes('node_modules/') && !file.startsWith('vendor/'),
  );

describe('the variables of the environment', () => {
  it('are each named in README.md or a guide in docs/', () => {
    const read = new Set<string>();
    for (const file of filesOf('**/*.{ts,js,mjs}'))
      for (const m of text(file).matchAll(/process\.env\.(QC_\w+)/g)) read.add(m[1] as string);
    // The service's settings are read through the schema of server/core/config.ts, by name.
    for (const m of text('server/core/config.ts').matchAll(/^ {2}(QC_\w+):/gm)) read.add(m[1] as string);
    expect(read.has('QC_TEST_EMBEDDED') && read.has('QC_LOG_LEVEL')).toBe(true);
    const guides = ['README.md', ...filesOf('docs/*.md')].map(text).join('\n');
    const undocumented = [...read].filter((name) => !new RegExp(`\\b${name}\\b`).test(guides));
    expect(undocumented).toEqual([]);
  });
});
