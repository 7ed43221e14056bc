import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { perFile, testAppPerFile } from '../server/testing/harness.ts';

/**
 * docs/scaling.md places every table of the schema for a distributed PostgreSQL. It said `rate_plan_rooms`,
 * `gallery_*` and the amenities carried `property_id` (they do not all) and named an `idempotency` table that never
 * existed. Its tables are read here against the migrated schema: every table placed once, nothing placed that is
 * not a table, and where a table's header names a column (`property_id`, `customer_id`), each row's claim that it
 * carries it ("column", "is `id`") or not ("none: ...") holds, as does each row's "Primary key today".
 */
const t = testAppPerFile();
const DOC = readFileSync(join(import.meta.dir, '..', 'docs', 'scaling.md'), 'utf8');

interface SchemaTable {
  columns: string[];
  key: string[];
}

const schema = perFile(async () => {
  const rows = await t.deps.db.sql<{ name: string; columns: string[]; key: string[] }>`
    select c.relname::text as name,
      array(select a.attname::text from pg_attribute a
        where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
      array(select a.attname::text from pg_index i, unnest(i.indkey) with ordinality k(attnum, n), pg_attribute a
        where i.indrelid = c.oid and i.indisprimary and a.attrelid = c.oid and a.attnum = k.attnum order by k.n) as key
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition`;
  return Object.fromEntries(rows.map((r) => [r.name, { columns: r.columns, key: r.key } satisfies SchemaTable]));
});

interface Row {
  tables: string[];
  /** The header's column name in backticks, and this row's cell under it. */
  carries?: { column: string; claim: string };
  key?: string[];
}

/** Every row of every markdown table of the page whose first header cell is "Table". */
function layoutRows(): Row[] {
  const rows: Row[] = [];
  let header: string[] | undefined;
  for (const line of DOC.split('\n')) {
    if (!line.startsWith('|')) {
      header = undefined;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (!header) {
      header = cells;
      continue;
    }
    if (header[0] !== 'Table' || cells[0]?.startsWith('---')) continue;
    const column = /^`(\w+)`$/.exec(header[1] ?? '')?.[1];
    const keyAt = header.indexOf('Primary key today');
    rows.push({
      tables: [...(cells[0] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1] as string),
      carries: column ? { column, claim: cells[1] ?? '' } : undefined,
      key: keyAt < 0 ? undefined : /^`\(([\w, ]+)\)`$/.exec(cells[keyAt] ?? '')?.[1]?.split(', '),
    });
  }
  return rows;
}

describe('docs/scaling.md against the migrated schema', () => {
  it('places every table exactly once and names no table the schema lacks', () => {
    const placed = layoutRows().flatMap((row) => row.tables);
    expect(placed.length).toBeGreaterThan(20);
    expect(placed.filter((name) => !schema[name])).toEqual([]);
    expect(placed.filter((name, i) => placed.indexOf(name) !== i)).toEqual([]);
    expect(Object.keys(schema).filter((name) => !placed.includes(name))).toEqual([]);
  });

  it('says which tables carry the distribution column and what their primary keys are, as the schema has them', () => {
    for (const row of layoutRows()) {
      for (const name of row.tables) {
        const table = schema[name] as SchemaTable;
        if (row.key) expect({ name, key: table.key }).toEqual({ name, key: row.key });
        if (!row.carries) continue;
        const { column, claim } = row.carries;
        const has = claim.startsWith('is `id`') ? 'id' : column;
        const expected = claim.startsWith('none') ? false : claim === 'column' || claim.startsWith('is `id`');
        expect({ name, claim, carries: table.columns.includes(has) }).toEqual({ name, claim, carries: expected });
        // A claim this test does not read would check nothing.
        expect({ name, claim, read: /^(column|none|is `id`)/.test(claim) }).toEqual({ name, claim, read: true });
      }
    }
  });
});
