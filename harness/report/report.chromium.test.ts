import { afterAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHeadlessPage } from '../../server/testing/headless-chromium.ts';
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

async function corpus(name: string, entries: Array<[string, string]>): Promise<string> {
  const file = join(dir, name);
  const writer = await CorpusWriter.open(file);
  for (const [path, body] of entries) await writer.append(jsonExchange(`${BASE}/${path}?api_key=k`, body));
  await writer.close();
  return file;
}

const booking = (at: string, price: string, status = 'confirmed') =>
  `{"generated_at":"${at}","data":[{"revision_id":"161307-1-96cd38aaa2687913","booking_id":161307,"status":"${status}","client":{"first_name":"Maria","last_name":"Costa"},"booking_items":[{"booking_item_id":10,"room_id":4,"price":${price},"currency":"EUR"}]}]}`;
const rooms =
  '{"data":[{"id":4,"name":"Double Room","description":"<p>Sea-view double room.<\\/p>","type":7,"sqm_area":22.0}]}';

describe('the HTML report', () => {
  it('shows score, endpoints, noise, history and the differing exchanges side by side, self-contained', async () => {
    const entries = (at: string, changed: boolean): Array<[string, string]> => [
      ['booking/getBookings', booking(at, '240.0')],
      ['property/getRoomsDetails', rooms],
      ['booking/getBookings', booking(at, changed ? '240' : '240.0', changed ? 'cancelled' : 'confirmed')],
      ['property/getRoomsDetails', changed ? rooms.replace('22.0', '24.0') : rooms],
      ['availability/getAvailability', '{"data":[]}'],
    ];
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
      expect(await page.locator('.score .value').innerText()).toBe('40.0 %');
      expect(await page.locator('.count').allInnerTexts()).toEqual([
        '5\nEXCHANGES',
        '2\nIDENTICAL',
        '1\nNOISE ONLY',
        '2\nDIFFERENT',
        '0\nFAILED',
      ]);
      expect(await page.locator('svg.plot circle').count()).toBe(3);
      expect(await page.locator('table.endpoints tbody tr').count()).toBe(3);
      expect(await page.locator('table.noise').first().innerText()).toContain('$.generated_at');
      const exchanges = page.locator('details.exchange');
      expect(await exchanges.count()).toBe(2);
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
});
