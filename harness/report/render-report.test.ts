import { describe, expect, it } from 'bun:test';
import { compareExchange } from '../compare/compare-exchange.ts';
import { IgnoreRules } from '../compare/ignore-rules.ts';
import { learnNoise } from '../compare/noise.ts';
import { type KeptExchange, type RunSummary, Scoreboard } from '../compare/score.ts';
import { jsonExchange } from '../testing/exchanges.ts';
import { renderReport } from './render-report.ts';

const URL = 'http://legacy/api/pms/v1/booking/getBookings?api_key=k';
const bookings = (at: string, qty = 1) => JSON.stringify({ data: [1, 2, 3, 4].map((id) => ({ id, at, qty })) });
const answer = (body: string) => ({
  status: 200,
  responseHeaders: [['content-type', 'application/json']] as const,
  responseBody: new TextEncoder().encode(body),
});

/** Every "N of M" the page says, as numbers: each must count one thing and its whole. */
function ofPairs(html: string): Array<[number, number]> {
  const text = html.replace(/<[^>]+>/g, '');
  return [...text.matchAll(/(\d[\d,]*) of (\d[\d,]*)/g)].map((m) => [
    Number(m[1]?.replace(/,/g, '')),
    Number(m[2]?.replace(/,/g, '')),
  ]);
}

const page = (summary: RunSummary, kept: KeptExchange[], extra: Partial<Parameters<typeof renderReport>[0]> = {}) =>
  renderReport({
    title: 'Run',
    subject: 'a → b',
    finishedAt: '2026-11-28T00:00:00Z',
    summary,
    kept,
    forgiven: [],
    noise: [],
    history: [],
    ...extra,
  });

describe('the report says "N of M" only where N counts part of M', () => {
  it('counts noise in pairs: a field varying in four elements of one answer is one pair of its endpoint', async () => {
    const primary = [jsonExchange(URL, bookings('a')), jsonExchange(URL, bookings('a'))];
    const secondary = [jsonExchange(URL, bookings('b')), jsonExchange(URL, bookings('a'))];
    const noise = await learnNoise(primary, secondary);
    expect(noise.summary()[0]).toMatchObject({ exchanges: 2, fields: [{ path: '$.data[*].at', count: 1 }] });

    const board = new Scoreboard({ keep: 1 });
    for (let index = 0; index < 3; index++) {
      const recorded = jsonExchange(URL, bookings('a'));
      const replayed = answer(bookings('c', index + 2));
      board.add({ index, recorded, replayed, comparison: compareExchange(recorded, replayed, { noise }) });
    }
    const html = page(board.summary(), board.keptExchanges(), {
      forgiven: board.forgivenFields(),
      noise: noise.summary(),
    });
    expect(html).toContain('(1 of 2 pairs)');
    expect(html).toContain('(1 of 3 kept whole: the first of each class, most severe first)');
    for (const [part, whole] of ofPairs(html)) expect(part).toBeLessThanOrEqual(whole);
  });

  it('counts what the service kept as samples against the exchanges that differed, not against the samples', () => {
    // The service's shadow scores (harness report --from-service): 40 exchanges differed, 2 were kept as samples.
    const recorded = jsonExchange(URL, bookings('a'));
    const replayed = answer(bookings('a', 2));
    const comparison = compareExchange(recorded, replayed);
    const kept: KeptExchange[] = [0, 1].map((index) => ({
      index,
      recorded,
      replayed,
      fields: comparison.fields,
      class: 'value',
    }));
    const summary: RunSummary = {
      exchanges: 100,
      identical: 60,
      different: 40,
      noise_only: 0,
      failed: 0,
      score: 0.4,
      classes: { failed: 0, status: 0, message: 0, field: 0, value: 2, representation: 0 },
      endpoints: [],
      differences: kept.map((k) => ({
        index: k.index,
        method: 'GET',
        url: URL,
        status: { recorded: 200, replayed: 200 },
        class: 'value',
        severity: 2,
        fields: comparison.fields,
      })),
      ignore_rules: [],
    };
    const html = page(summary, kept);
    expect(html).toContain(
      '(2 of 40 kept whole: the samples the service kept, the first differing exchanges of each day)',
    );
    expect(html).toContain('(2 of 40 differing exchanges: the samples kept)');
    expect(html).toContain('classes of 2 of 40 differing exchanges: the samples kept');
    for (const [part, whole] of ofPairs(html)) expect(part).toBeLessThanOrEqual(whole);
  });
});

describe('the headline score', () => {
  it('says nothing was compared, not a green 0 %, when a run or a range compared no exchange', () => {
    // A shadow key whose legacy service never answered, or an empty corpus: no evidence that the port matches.
    const html = page(new Scoreboard().summary(), []);
    expect(html).toContain('<div class="score empty">');
    expect(html).toContain('nothing was compared: no evidence either way');
    expect(html).toContain('None: nothing was compared.');
    expect(html).not.toContain('<div class="score ok">');
    expect(html).not.toContain('every answer matched');
  });

  it('is green at 0 % once exchanges were compared and none differed', () => {
    const board = new Scoreboard();
    const recorded = jsonExchange(URL, bookings('a'));
    board.add({
      index: 0,
      recorded,
      replayed: answer(bookings('a')),
      comparison: compareExchange(recorded, answer(bookings('a'))),
    });
    const html = page(board.summary(), []);
    expect(html).toContain('<div class="score ok">');
    expect(html).toContain('None: every answer matched the recording.');
  });
});

describe('the noise and forgiven section', () => {
  it('lists each ignore rule with the exchanges it forgave and the first of them, one that never applied too', () => {
    const ignore = IgnoreRules.parse('GET /api/pms/v1/booking/getBookings $.data[*].at\n* * $.gone');
    const board = new Scoreboard({ ignore });
    for (let index = 0; index < 3; index++) {
      const recorded = jsonExchange(URL, bookings('a'));
      // #1 differs in a real field too: forgiven in part, kept whole, and still counted as different.
      const replayed = answer(bookings('b', index === 1 ? 2 : 1));
      board.add({ index, recorded, replayed, comparison: compareExchange(recorded, replayed, { ignore }) });
    }
    const summary = board.summary();
    expect(summary).toMatchObject({ noise_only: 2, different: 1 });
    const html = page(summary, board.keptExchanges(), { forgiven: board.forgivenFields() });
    const section = html.slice(
      html.indexOf('<section id="forgiven">'),
      html.indexOf('</section>', html.indexOf('<section id="forgiven">')),
    );
    const rows = [
      ...section.matchAll(
        /<tr class="[^"]*"><td><code>([^<]*)<\/code><\/td><td class="num">(\d+)<\/td>\n<td>(.*?)<\/td><\/tr>/g,
      ),
    ].map((m) => [m[1], Number(m[2]), m[3]?.replace(/<[^>]+>/g, '')]);
    expect(rows).toEqual([
      ['GET /api/pms/v1/booking/getBookings $.data[*].at', 3, '#0 $.data[0].at'],
      ['* * $.gone', 0, 'never applied'],
    ]);
  });

  it("shows the service's counts with the first day a rule applied", () => {
    const html = page(
      {
        ...new Scoreboard().summary(),
        ignore_rules: [
          { rule: '* * $.generated_at', exchanges: 12, sample: { date: '2030-08-01', path: '$.generated_at' } },
        ],
      },
      [],
    );
    expect(html.replace(/<[^>]+>/g, '')).toContain('* * $.generated_at12\n2030-08-01 $.generated_at');
  });
});

describe('bodies that are not text', () => {
  it('shows each byte that is not UTF-8, and each control character, escaped among the text around it', () => {
    const legacy = new Uint8Array([
      ...Buffer.from('{"note":"caf\xc3\xa9 <b>', 'latin1'),
      0x00,
      0xff,
      0x0a,
      0x7f,
      0x22,
      0x7d,
    ]);
    const recorded = { ...jsonExchange(URL, ''), responseBody: legacy };
    const replayed = answer('{"note":"café <b>"}');
    const board = new Scoreboard();
    board.add({ index: 0, recorded, replayed, comparison: compareExchange(recorded, replayed) });
    const html = page(board.summary(), board.keptExchanges());
    const body = html.slice(html.indexOf('<h4>Recorded</h4>'), html.indexOf('<h4>Replayed</h4>'));
    expect(body).toContain(
      '{&quot;note&quot;:&quot;café &lt;b&gt;<span class="esc">\\x00</span><span class="esc">\\xff</span>\n<span class="esc">\\x7f</span>&quot;}',
    );
    // The text around the differing bytes (the fields table) writes the NUL the same way; nothing raw reaches the page.
    expect(html).toContain('&lt;b&gt;\\x00');
    expect(html).not.toContain('\u0000');
  });
});
