import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * server/core/resolve.ts is the only place that turns a partner's reference into a record. Six copies with
 * six different case, customer and allow-list rules existed before it; this fails on a seventh: any source
 * file (tests and their fixtures aside) with SQL that selects by partner code.
 */
const ROOT = join(import.meta.dir, '..', '..');
const THE_RESOLVER = 'server/core/resolve.ts';
// A condition on partner_code (after where, and, or), not a partner code being set (update .. set partner_code = ..).
const SELECT_BY_CODE = /\b(where|and|or)\s+\(?\s*(\w+\.)?partner_code\s*(=\s*(any\s*\(|\$\{|\$\d)|in\s*\()/i;

const isTestCode = (file: string) =>
  /\.test\.ts$/.test(file) || /(^|\/)(test-support|test-fixtures|legacy-test-fixture)\.ts$/.test(file);

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return path.endsWith('.ts') && !isTestCode(path) ? [path] : [];
  });
}

function selectsByPartnerCode(text: string): boolean {
  return SELECT_BY_CODE.test(text);
}

describe('one resolver', () => {
  it('recognises SQL selecting by partner code, and not a partner code being set', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: samples of SQL as it reads in a tagged template
    expect(selectsByPartnerCode('where partner_code = ${segment} and customer_id = 1')).toBe(true);
    expect(selectsByPartnerCode('or partner_code = any($3::text[])')).toBe(true);
    expect(selectsByPartnerCode('where r.partner_code = $1')).toBe(true);
    expect(selectsByPartnerCode('where customer_id = $1 and (partner_code = $2 or external_id::text = $2)')).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: samples of SQL as it reads in a tagged template
    expect(selectsByPartnerCode('partner_code = case when ${set} then ${code} else partner_code end')).toBe(false);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: samples of SQL as it reads in a tagged template
    expect(selectsByPartnerCode('update room_types set partner_code = ${code}, partner_name = ${name}')).toBe(false);
  });

  it('has no second copy: no source outside server/core/resolve.ts selects by partner code', () => {
    const copies = ['server', 'legacy', 'actors']
      .flatMap(sources)
      .map((file) => relative(ROOT, join(ROOT, file)))
      .filter((file) => file !== THE_RESOLVER && selectsByPartnerCode(readFileSync(join(ROOT, file), 'utf8')));
    expect(copies).toEqual([]);
  });

  it('the resolver itself is found by the scan (the scan reads the right files)', () => {
    expect(selectsByPartnerCode(readFileSync(join(ROOT, THE_RESOLVER), 'utf8'))).toBe(true);
  });
});
