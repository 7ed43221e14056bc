import { describe, expect, it } from 'bun:test';
import { rewriteBody, rewriteQuery } from '../replay/rewrite-request.ts';
import { jsonExchange } from '../testing/exchanges.ts';
import { compareExchange } from './compare-exchange.ts';
import { Correspondence } from './correspondence.ts';

const BASE = 'http://legacy/api/pms/v1';
const answer = (body: string) => ({
  status: 200,
  responseHeaders: [['content-type', 'application/json']] as const,
  responseBody: new TextEncoder().encode(body),
});
const settings = (room: number, rate: number) =>
  `{"data":{"rooms":[{"id":${room},"name":"Double"}],"rates":[{"id":${rate},"room_ids":[${room}]}]}}`;
const availability = (room: number, qty: number) => `{"data":[{"room_id":${room},"date":"2026-12-02","qty":${qty}}]}`;

function compare(correspondence: Correspondence, path: string, recorded: string, replayed: string, index = 0) {
  return compareExchange(jsonExchange(`${BASE}/${path}?api_key=k`, recorded), answer(replayed), {
    correspondence,
    index,
  });
}

describe('the id correspondence', () => {
  it('learns recorded -> replayed ids from the answers and accepts them everywhere after, per kind of id', () => {
    const ids = new Correspondence();
    // rooms[*].id, rates[*].id and rates[*].room_ids[*]: room 160 is room 1, rate 266 is rate 1.
    expect(compare(ids, 'property/getPropertySettings', settings(160, 266), settings(1, 1)).verdict).toBe('identical');
    expect(compare(ids, 'availability/getAvailability', availability(160, 3), availability(1, 3), 1).verdict).toBe(
      'identical',
    );
    // A bare id under data takes its kind from the endpoint: getRoomsDetails is about rooms.
    expect(compare(ids, 'property/getRoomsDetails', '{"data":[{"id":160}]}', '{"data":[{"id":1}]}', 2).verdict).toBe(
      'identical',
    );
    // What differs beside a mapped id is still a difference.
    expect(
      compare(ids, 'availability/getAvailability', availability(160, 3), availability(1, 4), 3).fields.map(
        (f) => f.path,
      ),
    ).toEqual(['$.data[0].qty']);
    expect(ids.summary()).toMatchObject({
      mappings: [
        { kind: 'rate', recorded: 266, replayed: 1, source: 'learnt', learnt_at: 0 },
        { kind: 'room', recorded: 160, replayed: 1, source: 'learnt', learnt_at: 0, seen: 5 },
      ],
      conflicts: [],
    });
  });

  it('holds an id that contradicts the mapping against the answer, naming the id the mapping expected', () => {
    const ids = new Correspondence();
    compare(ids, 'property/getPropertySettings', settings(160, 266), settings(1, 1));
    const other = compare(ids, 'availability/getAvailability', availability(160, 3), availability(2, 3), 4);
    expect(other.verdict).toBe('different');
    expect(other.fields).toEqual([
      { path: '$.data[0].room_id', recorded: 160, replayed: 2, class: 'value', expected: 1 },
    ]);
    // Two recorded rooms answered as one replayed room contradict it too.
    const merged = compare(ids, 'availability/getAvailability', availability(161, 3), availability(1, 3), 5);
    expect(merged.fields).toEqual([
      { path: '$.data[0].room_id', recorded: 161, replayed: 1, class: 'value', expected: 160 },
    ]);
    expect(ids.summary().conflicts).toEqual([
      { kind: 'room', recorded: 160, replayed: 2, expected: 1, index: 4, path: '$.data[0].room_id' },
      { kind: 'room', recorded: 161, replayed: 1, expected: 160, index: 5, path: '$.data[0].room_id' },
    ]);
  });

  it('lets an explicit pair override what the answers would teach', () => {
    const ids = new Correspondence();
    const pair = Correspondence.parsePair('room_id:160=7');
    ids.setExplicit(pair.kind, pair.recorded, pair.replayed);
    expect(pair.kind).toBe('room');
    expect(compare(ids, 'availability/getAvailability', availability(160, 3), availability(7, 3)).verdict).toBe(
      'identical',
    );
    expect(
      compare(ids, 'availability/getAvailability', availability(160, 3), availability(1, 3)).fields[0],
    ).toMatchObject({
      expected: '7',
    });
    expect(() => Correspondence.parsePair('room_id=7')).toThrow('expected FIELD:RECORDED=REPLAYED');
  });

  it('rewrites later requests to the replayed ids and shifted dates, every other byte as recorded', () => {
    const ids = new Correspondence(3);
    compare(ids, 'property/getPropertySettings', settings(160, 266), settings(1, 1));
    expect(rewriteQuery('/x/getRoomsDetails?api_key=160&room_id=160&date_from=2026-12-02&x=%2F', ids, 'room')).toBe(
      '/x/getRoomsDetails?api_key=160&room_id=1&date_from=2026-12-05&x=%2F',
    );
    const body = '{"values":[{"room_id":160, "date":"2026-12-02","qty":160,"note":"caf\\u00e9"}]}';
    const rewritten = rewriteBody(new TextEncoder().encode(body), 'application/json', ids, undefined);
    expect(new TextDecoder().decode(rewritten as Uint8Array)).toBe(
      '{"values":[{"room_id":1, "date":"2026-12-05","qty":160,"note":"caf\\u00e9"}]}',
    );
    // And a replayed date moved by the shift is the recorded one.
    expect(
      compare(
        ids,
        'availability/getAvailability',
        availability(160, 3),
        availability(1, 3).replace('2026-12-02', '2026-12-05'),
      ).verdict,
    ).toBe('identical');
  });
});
