import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The small rules are kept one way, each by one helper; a second copy fails here. Reads every source module
 * (tests and test kits aside) of server/, legacy/, actors/ and pricing/.
 */
const ROOT = join(import.meta.dir, '..', '..');
const sources = ['server', 'legacy', 'actors', 'pricing'].flatMap((dir) =>
  [...new Bun.Glob('**/*.ts').scanSync({ cwd: join(ROOT, dir) })]
    .filter((file) => !/\.test\.ts$|(^|\/|-)test-[a-z-]+\.ts$|-test-fixture\.ts$/.test(file))
    .map((file) => ({ path: `${dir}/${file}`, text: readFileSync(join(ROOT, dir, file), 'utf8') })),
);
const holding = (pattern: RegExp) => sources.filter((s) => pattern.test(s.text)).map((s) => s.path);

describe('one helper per small rule', () => {
  it('reads the sources', () => {
    expect(sources.length).toBeGreaterThan(300);
  });

  it('spells the date schema once (server/core/http/day-schema.ts)', () => {
    expect(holding(/format: 'date'|\\\\d\{4\}-\\\\d\{2\}-\\\\d\{2\}/)).toEqual(['server/core/http/day-schema.ts']);
  });

  it('prints a nullable timestamp with the one iso() (server/core/iso.ts)', () => {
    expect(holding(/toISOString\(\) : null/)).toEqual(['server/core/iso.ts']);
  });

  it('resolves the property of every /properties/:property operation through inProperty', () => {
    const routes = sources.filter((s) => /defineRoute\(/.test(s.text) && /\/properties\/:property/.test(s.text));
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((s) => /resolveProperty\(/.test(s.text)).map((s) => s.path)).toEqual([]);
  });

  it('names the first generated booking id once (server/core/booking-ids.ts)', () => {
    expect(holding(/\b16130[0-9]\b|\b161_30[0-9]\b/)).toEqual(['server/core/booking-ids.ts']);
  });

  it('reads database rows as their record type without `as unknown as` casts', () => {
    expect(holding(/as unknown as \w*(Record|Row)\b(?!<)/)).toEqual([]);
  });

  it('keeps SQL out of operation files, partner and operator alike (it lives in the domain modules)', () => {
    const operations = sources.filter((s) => /define(Operator)?Route\(/.test(s.text));
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.filter((s) => /\.(sql|query)(<[^>]*>)?[`(]/.test(s.text)).map((s) => s.path)).toEqual([]);
  });

  it('types the demo: no open `[part: string]: unknown` bag', () => {
    expect(holding(/\[part: string\]: unknown/)).toEqual([]);
  });
});
