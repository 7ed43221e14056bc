import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every write to a property's calendar goes through actors/ (the turn, the window, last-write-wins, dry
 * runs): no other module of the service may hold SQL that writes the calendar tables (server/migrations/
 * 0003_calendar.sql). Tests may set up rows directly; source may not.
 */
const ROOT = join(import.meta.dir, '..');
const CALENDAR_TABLES = ['availability', 'rates', 'restrictions'];
const WRITE = new RegExp(
  String.raw`\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?|merge\s+into|copy)\s+(?:only\s+)?(?:public\.)?"?(${CALENDAR_TABLES.join('|')})"?(?![\w.])`,
  'gi',
);

function isTestCode(path: string): boolean {
  return /\.test\.ts$/.test(path) || /(^|\/)(test-support|test-fixtures|legacy-test-fixture)\.ts$/.test(path);
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return path.endsWith('.ts') && !isTestCode(path) ? [path] : [];
  });
}

/** `file: statement` for every calendar-table write in the given folders' source. */
function calendarWrites(dirs: readonly string[]): string[] {
  return dirs
    .flatMap(sources)
    .flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(WRITE)].map(
        (m) => `${relative(ROOT, join(ROOT, file))}: ${m[0]}`,
      ),
    );
}

describe('the calendar tables have one writer', () => {
  it('no module outside actors/ writes availability, rates or restrictions', () => {
    expect(calendarWrites(['server', 'legacy'])).toEqual([]);
  });

  it('the scan sees the writers actors/ holds, so it would see a second one', () => {
    const found = calendarWrites(['actors']).map((w) => w.replace(/\s+/g, ' ').toLowerCase());
    // Each table's writer is an upsert (insert .. on conflict do update); bookings' held rooms an update.
    for (const table of CALENDAR_TABLES) expect(found.some((w) => w.includes(`insert into ${table}`))).toBe(true);
    expect(found.some((w) => w.includes('update availability'))).toBe(true);
  });
});
