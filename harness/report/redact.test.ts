import { describe, expect, it } from 'bun:test';
import { compareExchange } from '../compare/compare-exchange.ts';
import { Scoreboard } from '../compare/score.ts';
import { jsonExchange } from '../testing/exchanges.ts';
import { REDACTION } from './redact.ts';

const URL = 'http://legacy/api/pms/v1/booking/getBookings?api_key=Sekr3tKey&access_token=tok123&type=new';
const booking = (adults: number, price: string) =>
  `{"data":[{"client":{"first_name":"Maria","last_name":"Almeida","email":"almeida@example.com","phone":"+351 912 345 678"},"num_adults":${adults},"client_secret":"cs_live_abc","price":${price}}]}`;

function run(recordedBody: string, replayedBody: string) {
  const recorded = {
    ...jsonExchange(URL, recordedBody),
    requestHeaders: [['Authorization', 'Bearer eyJhbGciOi.secret']] as const,
  };
  const replayed = {
    status: 200,
    responseHeaders: [['content-type', 'application/json']] as const,
    responseBody: new TextEncoder().encode(replayedBody),
  };
  const board = new Scoreboard();
  board.add({ index: 0, recorded, replayed, comparison: compareExchange(recorded, replayed) });
  return board;
}

const SECRETS = ['Sekr3tKey', 'tok123', 'cs_live_abc', 'eyJhbGciOi', 'almeida@example.com', 'Almeida', '912 345'];

describe('redacted outputs', () => {
  it('leave no secret or guest datum in the summary or the kept exchanges, masked as the partner API masks', () => {
    const board = run(booking(2, '240.0'), booking(3, '240'));
    const summary = REDACTION.summary(board.summary());
    const kept = REDACTION.kept(board.keptExchanges());
    const shown = JSON.stringify({
      summary,
      kept: kept.map((k) => ({ ...k, body: new TextDecoder().decode(k.recorded.responseBody) })),
    });
    for (const secret of SECRETS) expect(shown).not.toContain(secret);
    expect(summary.differences[0]?.url).toBe(
      'http://legacy/api/pms/v1/booking/getBookings?api_key=REDACTED&access_token=REDACTED&type=new',
    );
    expect(kept[0]?.recorded.requestHeaders).toEqual([['Authorization', 'REDACTED']]);
    // The body masked in place: every other byte as sent (240.0 stays 240.0).
    expect(new TextDecoder().decode(kept[0]?.recorded.responseBody)).toBe(
      '{"data":[{"client":{"first_name":"Maria","last_name":"A.","email":"a******************","phone":"**********78"},"num_adults":2,"client_secret":"REDACTED","price":240.0}]}',
    );
  });

  it('moves the byte offset of a body difference with the masks, so the report marks the same token', () => {
    const board = run(booking(2, '240.0'), booking(2, '240'));
    const [raw] = board.keptExchanges();
    const [kept] = REDACTION.kept(board.keptExchanges());
    const field = kept?.fields.find((f) => f.path === 'body');
    const at = (bytes: Uint8Array | undefined, offset: number | undefined) =>
      new TextDecoder().decode(bytes?.subarray(offset, (offset ?? 0) + 5));
    expect(at(raw?.recorded.responseBody, raw?.fields[0]?.offset)).toBe('240.0');
    expect(at(kept?.recorded.responseBody, field?.offset)).toBe('240.0');
    expect(at(kept?.replayed?.responseBody, field?.replayed_offset)).toBe('240}]');
    // The snippet around the difference is redacted too.
    expect(String(field?.recorded)).not.toContain('cs_live_abc');
  });
});
