import { afterAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHeadlessPage, SCREENSHOT_DIR } from '../../server/testing/headless-chromium.ts';
import { CorpusWriter } from '../corpus/corpus-writer.ts';
import { jsonExchange } from '../testing/exchanges.ts';
import { runHarness } from '../testing/harness-cli.ts';

/**
 * The HTML report as people see it: rendered by Debian's headless Chromium from a file, with nothing fetched from
 * anywhere, a screenshot kept under .artifacts/screenshots/harness-report.png.
 */
const dir = mkdtempSync(join(tmpdir(), 'qc-harness-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = 'http://legacy/api/pms/v1';

/** A corpus of JSON answers; a body given as bytes is kept as those bytes (not UTF-8, a NUL). */
async function corpus(name: string, entries: Array<[string, string | Uint8Array]>): Promise<string> {
  const file = join(dir, name);
  const writer = await CorpusWriter.open(file);
  for (const [path, body] of entries) {
    const exchange = jsonExchange(`${BASE}/${path}?api_key=k`, typeof body === 'string' ? body : '');
    await writer.append(typeof body === 'string' ? exchange : { ...exchange, responseBody: body });
  }
  await writer.close();
  return file;
}

const booking = (at: string, price: string, status = 'confirmed') =>
  `{"generated_at":"${at}","data":[{"revision_id":"161307-1-96cd38aaa2687913","booking_id":161307,"status":"${status}","client":{"first_name":"Maria","last_name":"Costa"},"booking_items":[{"booking_item_id":10,"room_id":4,"price":${price},"currency":"EUR"}]}]}`;
const rooms =
  '{"data":[{"id":4,"name":"Double Room","description":"<p>Sea-view double room.<\\/p>","type":7,"sqm_area":22.0}]}';

describe('the HTML report', () => {
  it('shows score, endpoints, what noise and each ignore rule forgave, history and the differing exchanges side by side, self-contained', async () => {
    // The candidate's last answer is broken bytes: a NUL and a byte that is not UTF-8 where JSON was.
    const broken = new Uint8Array([...Buffer.from('{"data":['), 0x00, 0xff, ...Buffer.from(']}')]);
    const entries = (at: string, changed: boolean): Array<[string, string | Uint8Array]> => [
      ['booking/getBookings', booking(at, '240.0')],
      ['property/getRoomsDetails', rooms],
      ['booking/getBookings', booking(at, changed ? '240' : '240.0', changed ? 'cancelled' : 'confirmed')],
      ['property/getRoomsDetails', changed ? rooms.replace('22.0', '24.0') : rooms],
      ['availability/getAvailability', '{"data":[]}'],
      ['availability/getAvailability', changed ? broken : '{"data":[]}'],
    ];
    // One rule the team agreed on (the room's area, re-measured), one that no longer applies to anything.
    const rules = join(dir, 'ignore.txt');
    writeFileSync(rules, 'GET /api/pms/v1/property/getRoomsDetails $.data[*].sqm_area\n* * $.data[*].discount\n');
    const primary = await corpus('primary.har', entries('2026-11-22T10:00:00Z', false));
    const secondary = await corpus('secondary.har', entries('2026-11-22T10:05:00Z', false));
    const candidate = await corpus('candidate.har', entries('2026-11-22T11:00:00Z', true));
    const history = join(dir, 'history');
    const report = join(dir, 'report.html');
    // Three earlier runs (one clean, one with the candidate itself) make the score plot.
    expect((await runHarness(['compare', primary, secondary, '--history', history])).code).toBe(1);
    expect((await runHarness(['compare', primary, primary, '--history', history])).code).toBe(0);
    const run = await runHarness([
      'compare',
      primary,
      candidate,
      '--secondary',
      secondary,
      '--ignore',
      rules,
      '--history',
      history,
      '--report',
      report,
    ]);
    expect(run.code).toBe(1);

    const html = readFileSync(report, 'utf8');
    // Self-contained: one inline script (the differences filter), nothing loaded from anywhere.
    expect(html).not.toMatch(/<link|@import|url\(|src=/i);
    expect(html.match(/<script/g)).toHaveLength(1);

    const opened = await openHeadlessPage(`file://${report}`, { onlyOrigin: `file://${report}` });
    try {
      const { page } = opened;
      expect(await page.locator('.score .value').innerText()).toBe('33.3 %');
      expect(await page.locator('.count').allInnerTexts()).toEqual([
        '6\nEXCHANGES',
        '2\nIDENTICAL',
        '2\nNOISE ONLY',
        '2\nDIFFERENT',
        '0\nFAILED',
      ]);
      expect(await page.locator('svg.plot circle').count()).toBe(3);
      expect(await page.locator('table.endpoints tbody tr').count()).toBe(3);
      expect(await page.locator('table.noise').first().innerText()).toContain('$.generated_at');
      expect(await page.locator('table.noise').first().innerText()).toContain('(2 of 2 pairs)');
      // Each ignore rule with the exchanges it forgave and the first: the area forgiven in #3 (which therefore
      // counts as noise only), the stale rule never.
      const rules = await page
        .locator('#forgiven table.rules tbody tr')
        .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)));
      expect(rules).toEqual([
        ['GET /api/pms/v1/property/getRoomsDetails $.data[*].sqm_area', '1', '#3 $.data[0].sqm_area'],
        ['* * $.data[*].discount', '0', 'never applied'],
      ]);
      const exchanges = page.locator('details.exchange');
      expect(await exchanges.count()).toBe(2);
      // The broken answer shown as the bytes it is: the text, and each byte a page cannot show written out.
      const broken = page.locator('#x-5 .side-by-side > div').last().locator('pre.body');
      expect(await broken.innerText()).toBe('{"data":[\\x00\\xff]}');
      expect(await broken.locator('.esc').allInnerTexts()).toEqual(['\\x00', '\\xff']);
      const first = exchanges.first();
      expect(await first.locator('summary').innerText()).toContain('#2');
      // Both bodies shown as written, the differing field marked on both sides, the noisy timestamp dimmed; the
      // price printed 240 instead of 240.0 is equal as JSON, so it is a byte difference, marked where bytes part.
      expect(await first.locator('.side-by-side mark.diff').allInnerTexts()).toEqual([
        '"status": "confirmed"',
        '240.0',
        '"status": "cancelled"',
        '240',
      ]);
      expect(await first.locator('.side-by-side mark.noise').count()).toBe(2);
      const fields = await first.locator('table.diff-fields').innerText();
      expect(fields).toContain('$.data[0].status');
      expect(fields).toContain('"price":240.0');
      expect(fields).toContain('"price":240,');
      // Nothing but the page itself was requested: no CDN, font or style.
      expect(opened.requests).toEqual([`file://${report}`]);
      expect(opened.refused).toEqual([]);
      const png = await opened.screenshot('harness-report');
      expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await opened.close();
    }
  }, 30_000);

  it('shows a run that compared nothing as no score, greyed, not as a green 0 %', async () => {
    const empty = await corpus('empty.har', []);
    const report = join(dir, 'nothing.html');
    const run = await runHarness(['compare', empty, empty, '--report', report]);
    expect(run.stdout).toContain('No score: nothing was compared.');
    const opened = await openHeadlessPage(`file://${report}`);
    try {
      const score = opened.page.locator('.headline .score');
      expect(await score.getAttribute('class')).toBe('score empty');
      expect(await score.innerText()).toContain('nothing was compared');
      expect(await opened.page.locator('body').innerText()).not.toContain('every answer matched');
      const png = await opened.screenshot('harness-report-nothing-compared');
      expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await opened.close();
    }
  }, 30_000);

  it('stays usable with thousands of differences: grouped by class and endpoint, paged, filterable, redacted', async () => {
    // 3000 exchanges on three endpoints; the candidate differs in all of them, with four classes.
    const guest = (i: number) =>
      `{"data":[{"booking_id":${i},"num_adults":2,"client":{"email":"guest${i}@example.com"}}]}`;
    const primary: Array<[string, string]> = [];
    const candidate: Array<[string, string]> = [];
    for (let i = 0; i < 1000; i++) {
      primary.push(
        ['booking/getBookings', guest(i)],
        ['property/getRoomsDetails', rooms],
        ['availability/getAvailability', `{"data":[{"qty":${i}}]}`],
      );
      candidate.push(
        [
          'booking/getBookings',
          guest(i).replace('"num_adults":2', i % 10 ? '"num_adults":3' : '"num_adults":2,"extra":1'),
        ],
        ['property/getRoomsDetails', rooms.replace('22.0', '22')],
        ['availability/getAvailability', `{"message":"Missing/Invalid required request data!"}`],
      );
    }
    const report = join(dir, 'many.html');
    const run = await runHarness([
      'compare',
      await corpus('many-a.jsonl', primary),
      await corpus('many-b.jsonl', candidate),
      '--report',
      report,
    ]);
    expect(run.code).toBe(1);
    const html = readFileSync(report, 'utf8');
    expect(html).not.toContain('@example.com');
    expect(html).not.toContain('api_key=k');

    const opened = await openHeadlessPage(`file://${report}`, { onlyOrigin: `file://${report}` });
    try {
      const { page } = opened;
      // Most severe first: the missing field (with 100 added fields), then values, then representation.
      const groups = page.locator('details.group > summary');
      expect(await groups.count()).toBe(4);
      expect((await groups.allInnerTexts()).map((t) => t.split('\n')[0]?.split(' ')[0])).toEqual([
        'FIELD',
        'FIELD',
        'VALUE',
        'REPRESENTATION',
      ]);
      // Paged: 50 rows of a group shown, the rest behind a button; the first differences first.
      const values = page.locator('details.group[data-class="value"]');
      expect(await values.locator('tr.row:visible').count()).toBe(50);
      expect(await values.locator('tr.row:visible td.index').first().innerText()).toBe('#3');
      await values.locator('button.more').click();
      expect(await values.locator('tr.row:visible').count()).toBe(100);
      // The filter narrows every group to the rows that mention the text.
      await page.locator('#filter').fill('#2997');
      expect(await page.locator('tr.row:visible').count()).toBe(1);
      expect(await page.locator('#shown').innerText()).toBe('1 matching');
      await page.locator('#filter').fill('');
      // The fourth group starts closed; opened, it pages the same way.
      const representation = page.locator('details.group[data-class="representation"]');
      expect(await representation.locator('tr.row:visible').count()).toBe(0);
      await representation.locator('summary').click();
      expect(await representation.locator('tr.row:visible').count()).toBe(50);
      expect(opened.requests).toEqual([`file://${report}`]);
      // The top of the page, as it opens (the whole page is long by design: every difference is listed).
      await page.setViewportSize({ width: 1280, height: 1400 });
      await page.evaluate('window.scrollTo(0, 0)');
      const png = join(SCREENSHOT_DIR, 'harness-report-many.png');
      await page.screenshot({ path: png });
      expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await opened.close();
    }
  }, 60_000);

  it("shows when each of the service's shadow samples was taken, in UTC, beside its number", async () => {
    // The operator API's shadow scores as the service answers them (GET /ops/legacy-keys/{id}/shadow-scores).
    const sample = (at: string, name: string) => ({
      date: at.slice(0, 10),
      method: 'GET',
      path: '/api/pms/v1/property/getPropertySettings',
      query: '?names=property',
      request_body: null,
      upstream: { status: 200, body: '{"data":{"property":{"name":"Sea View"}}}' },
      port: { status: 200, body: `{"data":{"property":{"name":"${name}"}}}` },
      fields: [{ path: '$.data.property.name', recorded: 'Sea View', replayed: name, class: 'value' }],
      at,
    });
    const day = (date: string) => ({
      date,
      compared: 3,
      different: 1,
      score: 1 / 3,
      unanswered: 0,
      overflowed: 0,
      failed: 0,
      forgiven: 0,
      noise_fields: [],
    });
    const scores = {
      key_id: 7,
      from: '2030-08-01',
      to: '2030-08-02',
      days: [day('2030-08-01'), day('2030-08-02')],
      endpoints: [{ method: 'GET', path: '/api/pms/v1/property/getPropertySettings', compared: 6, different: 2 }],
      ignore_rules: [],
      zero_streak_days: 0,
      meets_rule: false,
      samples: [sample('2030-08-01T09:15:02.250Z', 'Elsewhere'), sample('2030-08-02T23:59:59.000Z', 'Nowhere')],
    };
    const service = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (req) =>
        new URL(req.url).pathname === '/ops/legacy-keys/7/shadow-scores'
          ? Response.json({ data: scores })
          : new Response('{}', { status: 404 }),
    });
    const report = join(dir, 'shadow.html');
    try {
      const run = await runHarness([
        'report',
        '--from-service',
        `http://127.0.0.1:${service.port}`,
        '--key',
        '7',
        '--out',
        report,
        '--token',
        't',
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(1);
    } finally {
      service.stop(true);
    }
    const opened = await openHeadlessPage(`file://${report}`, { onlyOrigin: `file://${report}` });
    try {
      const { page } = opened;
      // Each kept sample: its number, then the UTC date and time the PMS asked.
      const summaries = await page
        .locator('details.exchange > summary')
        .evaluateAll((rows) =>
          rows.map((row) => `${row.querySelector('.index')?.textContent} ${row.querySelector('time.at')?.textContent}`),
        );
      expect(summaries).toEqual(['#0 2030-08-01 09:15:02 UTC', '#1 2030-08-02 23:59:59 UTC']);
      // The differences table too, under each number.
      expect(await page.locator('table.rows td.index time.at').allInnerTexts()).toEqual([
        '2030-08-01 09:15:02 UTC',
        '2030-08-02 23:59:59 UTC',
      ]);
      expect(await page.locator('details.exchange time.at').first().getAttribute('datetime')).toBe(
        '2030-08-01T09:15:02.250Z',
      );
      const png = await opened.screenshot('harness-report-shadow-samples');
      expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await opened.close();
    }
  }, 30_000);
});
