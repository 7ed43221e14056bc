import { describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';
import { changelog } from './entries.ts';
import { renderChangelog } from './render-markdown.ts';

const t = testAppPerFile();

describe('changelog', () => {
  it('is served without a token as JSON, newest first', async () => {
    const res = await t.request('GET', '/v1/qc/changelog');
    expect(res.status).toBe(200);
    expect(res.body.data.entries).toEqual(JSON.parse(JSON.stringify(changelog)));
    const dates = res.body.data.entries.map((e: { date: string }) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('gives every breaking change a migration path', () => {
    const breaking = changelog.flatMap((e) => e.changes).filter((c) => c.kind === 'breaking');
    expect(breaking.length).toBeGreaterThan(0);
    expect(breaking.filter((c) => !c.migration)).toEqual([]);
  });

  it('matches CHANGELOG.md (run `npm run changelog` after editing the entries)', async () => {
    const file = await Bun.file(new URL('../../CHANGELOG.md', import.meta.url)).text();
    expect(file).toBe(renderChangelog(changelog));
  });
});
