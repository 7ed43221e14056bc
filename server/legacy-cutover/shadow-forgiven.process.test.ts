import { afterAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { legacyFixture, NOW } from '../../legacy/legacy-test-fixture.ts';
import { ManualClock } from '../core/clock.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import {
  type CorpusEntry,
  type LegacyCall,
  portEntries,
  reportFromService,
  scores,
  send,
  serveCorpus,
  setMode,
  writeCorpus,
} from './cutover-test-fixture.ts';

/**
 * What the ignore rules forgive in shadow mode, counted per rule: the service started with
 * QC_LEGACY_SHADOW_IGNORE_FILE, a legacy stand-in (`harness serve`) that answers the property's name otherwise
 * (forgiven by a rule) and, for one request, its id too (a real difference).
 */
const NAME_RULE = 'GET /api/pms/v1/property/getPropertySettings $.data.property.name';
const rules = join(mkdtempSync(join(tmpdir(), 'qc-ignore-')), 'ignore.txt');
writeFileSync(rules, `# the port names the property as the partner API does\n${NAME_RULE}\n* * $.data.never\n`);

const t = testAppPerFile({ clock: new ManualClock(NOW), env: { QC_LEGACY_SHADOW_IGNORE_FILE: rules } });
const f = perFile(() => legacyFixture(t));
const stops: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const stop of stops) await stop();
}, 30_000);

const renamed: LegacyCall = { method: 'GET', path: 'property/getPropertySettings?names=property' };
const renamedAndMoved: LegacyCall = { method: 'GET', path: 'property/getPropertySettings?names=property,rates' };
const same: LegacyCall = { method: 'GET', path: 'property/getRoomsDetails' };

describe('shadow mode with ignore rules', () => {
  it('counts per rule the exchanges it forgave, and per day those equal only thanks to it; the score is unchanged', async () => {
    const { key, keyId } = await f.anotherKey();
    const [a, b, c] = (await portEntries(t, [renamed, renamedAndMoved, same], key)) as [
      CorpusEntry,
      CorpusEntry,
      CorpusEntry,
    ];
    const rename = (body: string) => body.replace(/"name":"[^"]*"/, '"name":"Legacy name"');
    const served = await serveCorpus(
      await writeCorpus(
        [
          { ...a, body: rename(a.body) },
          { ...b, body: rename(b.body).replace(/"id":(\d+)/, (_, id: string) => `"id":${Number(id) + 1}`) },
          c,
        ],
        key,
      ),
    );
    stops.push(served.stop);
    await setMode(t, keyId, 'shadow', served.url);

    t.clock.set('2030-08-01T12:00:00Z');
    for (const call of [renamed, renamed, renamedAndMoved, same]) await send(t, call, key);
    t.clock.set('2030-08-02T12:00:00Z');
    await send(t, renamed, key);
    t.clock.set(NOW);

    const range = await scores(t, keyId, '2030-08-01', '2030-08-02');
    // Forgiven is not different: 1 of 4 differs on the first day (the moved id), none on the second.
    expect(
      range.days.map(({ date, compared, different, forgiven, score }) => [date, compared, different, forgiven, score]),
    ).toEqual([
      ['2030-08-01', 4, 1, 2, 0.25],
      ['2030-08-02', 1, 0, 1, 0],
    ]);
    // The rule forgave the name in all four renamed exchanges, the one still different for its id included; the
    // rule that never applied is not listed (the service counts what happened).
    expect(range.ignore_rules).toEqual([
      { rule: NAME_RULE, exchanges: 4, sample: { date: '2030-08-01', path: '$.data.property.name' } },
    ]);

    const { run, html } = await reportFromService(t, keyId, '2030-08-01', '2030-08-02');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('5 compared, 1 different. Score 20.0 %');
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toMatch(/3\s*noise only/);
    expect(text).toMatch(/1\s*identical/);
    expect(text).toContain(`${NAME_RULE}4\n2030-08-01 $.data.property.name`);
  }, 30_000);
});
