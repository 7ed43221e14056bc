import { describe, expect, it } from 'bun:test';
import { brotliCompressSync, deflateSync } from 'node:zlib';
import { jsonExchange } from '../testing/exchanges.ts';
import { compareExchange } from './compare-exchange.ts';
import { IgnoreRules } from './ignore-rules.ts';
import { learnNoise } from './noise.ts';
import { Scoreboard } from './score.ts';

const URL = 'http://legacy/api/pms/v1/booking/getBookings?api_key=k';
const recorded = (body: string) => jsonExchange(URL, body);
const answer = (body: string, status = 200, contentType = 'application/json') => ({
  status,
  responseHeaders: [['Content-Type', contentType]] as const,
  responseBody: new TextEncoder().encode(body),
});

describe('compareExchange', () => {
  it('calls byte-identical answers identical', () => {
    const body = '{"data":[{"booking_id":1,"price":240.0}]}';
    expect(compareExchange(recorded(body), answer(body))).toEqual({
      endpoint: { method: 'GET', path: '/api/pms/v1/booking/getBookings' },
      verdict: 'identical',
      fields: [],
    });
  });

  it('names each differing JSON field by its path, with both values', () => {
    const result = compareExchange(
      recorded('{"data":[{"booking_id":1,"status":"confirmed","client":{"email":"a@x"}}]}'),
      answer('{"data":[{"booking_id":1,"status":"cancelled","client":{}}],"extra":true}'),
    );
    expect(result.verdict).toBe('different');
    expect(result.fields).toEqual([
      { path: '$.data[0].status', recorded: 'confirmed', replayed: 'cancelled', class: 'value' },
      { path: '$.data[0].client.email', recorded: 'a@x', class: 'field' },
      { path: '$.extra', replayed: true, class: 'field' },
    ]);
  });

  it('holds key order, escaping and number formatting against an answer whose fields are all equal, ranked as representation', () => {
    for (const [was, is, detail] of [
      ['{"a":1,"b":2}', '{"b":2,"a":1}', 'key order'],
      ['{"d":"<p>x<\\/p>"}', '{"d":"<p>x</p>"}', 'escaping'],
      ['{"price":240.0}', '{"price":240}', 'number format'],
      ['{"name":"Caf\\u00e9"}', '{"name":"Café"}', 'escaping'],
      ['{"a":1}', '{"a": 1}', 'whitespace'],
    ] as const) {
      const result = compareExchange(recorded(was), answer(is));
      expect(result.verdict).toBe('different');
      expect(result.fields).toEqual([
        {
          path: 'body',
          offset: expect.any(Number),
          replayed_offset: expect.any(Number),
          recorded: expect.any(String),
          replayed: expect.any(String),
          class: 'representation',
          detail,
        },
      ]);
    }
    const offset = compareExchange(recorded('{"price":240.0}'), answer('{"price":240}')).fields[0];
    // For JSON the offset is where the first differing token starts: the number as written.
    expect(offset).toEqual({
      path: 'body',
      offset: 9,
      replayed_offset: 9,
      recorded: '{"price":240.0}',
      replayed: '{"price":240}',
      class: 'representation',
      detail: 'number format',
    });
  });

  it('ranks a changed legacy message as a message change, byte for byte: an escape in it counts too', () => {
    const was = `{"message":"Can't find room id for the given ext room id!"}`;
    expect(compareExchange(recorded(was), answer(`{"message":"Can't find room id!"}`)).fields).toEqual([
      {
        path: '$.message',
        recorded: "Can't find room id for the given ext room id!",
        replayed: "Can't find room id!",
        class: 'message',
      },
    ]);
    const escaped = compareExchange(recorded(was), answer(was.replace("'", '\\u0027'))).fields;
    expect(escaped).toEqual([expect.objectContaining({ path: 'body', class: 'message', detail: 'escaping' })]);
  });

  it('names a body that is one JSON scalar by the root path only', () => {
    expect(compareExchange(recorded('"ok"'), answer('"no"')).fields).toEqual([
      { path: '$', recorded: 'ok', replayed: 'no', class: 'value' },
    ]);
  });

  it('compares status and Content-Type, and other headers only when asked', () => {
    const rec = recorded('{}');
    const result = compareExchange(rec, answer('{}', 404, 'text/html'));
    expect(result.fields).toEqual([
      { path: 'status', recorded: 200, replayed: 404, class: 'status' },
      { path: 'headers.content-type', recorded: 'application/json', replayed: 'text/html', class: 'value' },
    ]);
    const withTicket = {
      ...answer('{}'),
      responseHeaders: [...answer('{}').responseHeaders, ['X-Support-Ticket', 'T1']] as const,
    };
    expect(compareExchange(rec, withTicket).verdict).toBe('identical');
    expect(compareExchange(rec, withTicket, { headers: ['content-type', 'x-support-ticket'] }).fields).toEqual([
      { path: 'headers.x-support-ticket', replayed: 'T1', class: 'field' },
    ]);
  });

  it('compares a body that is not JSON as bytes, naming the first byte that differs', () => {
    const rec = { ...recorded('Throw Error Exception\nMsg: boom\nCode: 0') };
    const result = compareExchange(rec, answer('Throw Error Exception\nMsg: boom\nCode: 42P01'));
    expect(result.fields).toEqual([
      {
        path: 'body',
        class: 'value',
        offset: 38,
        replayed_offset: 38,
        recorded: '…ception\nMsg: boom\nCode: 0',
        replayed: '…ception\nMsg: boom\nCode: 42P01',
      },
    ]);
  });

  it('forgives fields matched by an ignore rule, and everything under them', () => {
    const ignore = IgnoreRules.parse(`
      # the port generates its own revision ids
      GET /api/pms/v1/booking/getBookings $.data[0].revision_id
      *   *                               $.meta
    `);
    const result = compareExchange(
      recorded('{"data":[{"revision_id":"a"},{"revision_id":"b"}],"meta":{"at":1}}'),
      answer('{"data":[{"revision_id":"x"},{"revision_id":"y"}],"meta":{"at":2}}'),
      { ignore },
    );
    expect(result.verdict).toBe('noise_only');
    // Each forgiven field names the first rule that covers it: what the report counts per rule.
    expect(result.fields.map((f) => [f.path, f.allowed, f.rule])).toEqual([
      ['$.data[0].revision_id', 'ignored', 'GET /api/pms/v1/booking/getBookings $.data[*].revision_id'],
      ['$.data[1].revision_id', 'ignored', 'GET /api/pms/v1/booking/getBookings $.data[*].revision_id'],
      ['$.meta.at', 'ignored', '* * $.meta'],
    ]);
  });

  it('refuses an ignore rule it cannot read, naming the line', () => {
    expect(() => IgnoreRules.parse('GET /x $.a\nGET /x')).toThrow('line 2: expected "METHOD PATH FIELD"');
    expect(() => IgnoreRules.parse('GET x $.a')).toThrow('line 1: path must start with /');
    expect(() => IgnoreRules.parse('GET /x data.a')).toThrow('line 1: field must be');
  });
});

describe('noise learnt from a secondary recording', () => {
  const generatedAt = (at: string, qty: number) => `{"generated_at":"${at}","data":[{"qty":${qty}}]}`;

  it('forgives a field that varies between primary and secondary, per endpoint, and nothing else', async () => {
    const other = 'http://legacy/api/pms/v1/availability/getAvailability?api_key=k';
    const noise = await learnNoise(
      [recorded(generatedAt('2026-01-01T00:00:00Z', 1)), jsonExchange(other, '{"generated_at":"same"}')],
      [recorded(generatedAt('2026-01-01T00:00:07Z', 1)), jsonExchange(other, '{"generated_at":"same"}')],
    );
    expect(noise.summary()).toEqual([
      {
        method: 'GET',
        path: '/api/pms/v1/booking/getBookings',
        exchanges: 1,
        fields: [
          {
            path: '$.generated_at',
            count: 1,
            example: { recorded: '2026-01-01T00:00:00Z', replayed: '2026-01-01T00:00:07Z' },
          },
        ],
      },
    ]);

    const onlyNoise = compareExchange(recorded(generatedAt('A', 1)), answer(generatedAt('B', 1)), { noise });
    expect(onlyNoise.verdict).toBe('noise_only');
    expect(onlyNoise.fields).toEqual([
      { path: '$.generated_at', recorded: 'A', replayed: 'B', class: 'value', allowed: 'noise' },
    ]);

    const real = compareExchange(recorded(generatedAt('A', 1)), answer(generatedAt('B', 2)), { noise });
    expect(real.verdict).toBe('different');
    expect(real.fields.filter((f) => !f.allowed).map((f) => f.path)).toEqual(['$.data[0].qty']);

    // Learnt on getBookings only: the same field varying on another endpoint is held against the answer.
    const elsewhere = compareExchange(jsonExchange(other, '{"generated_at":"A"}'), answer('{"generated_at":"B"}'), {
      noise,
    });
    expect(elsewhere.verdict).toBe('different');
  });

  it('still holds bytes outside the noisy fields against the answer', async () => {
    const noise = await learnNoise([recorded('{"at":"1","v":240.0}')], [recorded('{"at":"2","v":240.0}')]);
    expect(compareExchange(recorded('{"at":"1","v":240.0}'), answer('{"at":"3","v":240.0}'), { noise }).verdict).toBe(
      'noise_only',
    );
    const formatting = compareExchange(recorded('{"at":"1","v":240.0}'), answer('{"at":"3","v":240}'), { noise });
    expect(formatting.verdict).toBe('different');
    expect(formatting.fields.map((f) => [f.path, f.allowed])).toEqual([
      ['$.at', 'noise'],
      ['body', undefined],
    ]);
  });

  it('learns a field in one element of a list as noise in every element', async () => {
    const noise = await learnNoise(
      [recorded('{"data":[{"id":1,"at":"x"},{"id":2,"at":"x"}]}')],
      [recorded('{"data":[{"id":1,"at":"y"},{"id":2,"at":"x"}]}')],
    );
    const result = compareExchange(
      recorded('{"data":[{"id":1,"at":"x"},{"id":2,"at":"x"}]}'),
      answer('{"data":[{"id":1,"at":"x"},{"id":2,"at":"z"}]}'),
      { noise },
    );
    expect(result.verdict).toBe('noise_only');
  });

  it('refuses recordings that do not pair up, naming the entry', async () => {
    const other = jsonExchange('http://legacy/api/pms/v1/x', '{}');
    await expect(learnNoise([recorded('{}'), recorded('{}')], [recorded('{}'), other])).rejects.toThrow(
      'entry 1: the secondary recorded GET /api/pms/v1/x where the primary has GET /api/pms/v1/booking/getBookings',
    );
    await expect(learnNoise([recorded('{}')], [])).rejects.toThrow('entry 0: the secondary recording ends here');
  });
});

describe('compareExchange on a compressed answer', () => {
  const body = '{"data":[{"booking_id":1,"price":240.0}]}';
  const encoded = (coding: string, bytes: Uint8Array) => ({
    ...jsonExchange(URL, '', {
      responseHeaders: [
        ['content-type', 'application/json'],
        ['content-encoding', coding],
      ],
    }),
    responseBody: bytes,
  });

  it('compares the body as the client reads it: the same answer gzipped, deflated or brotli-encoded is identical', () => {
    const bytes = Buffer.from(body);
    for (const [coding, compressed] of [
      ['gzip', Bun.gzipSync(bytes)],
      ['deflate', deflateSync(bytes)],
      ['br', brotliCompressSync(bytes)],
    ] as const) {
      expect(compareExchange(encoded(coding, new Uint8Array(compressed)), answer(body)).verdict).toBe('identical');
    }
  });

  it('names the differing field inside a compressed body, and keeps the decoded bodies for the report', () => {
    const recordedAnswer = encoded('gzip', Bun.gzipSync(Buffer.from(body)));
    const replayed = answer('{"data":[{"booking_id":1,"price":240}]}');
    const comparison = compareExchange(recordedAnswer, replayed);
    expect(comparison.fields).toMatchObject([
      { path: 'body', class: 'representation', detail: 'number format', offset: 33 },
    ]);
    const board = new Scoreboard();
    board.add({ index: 0, recorded: recordedAnswer, replayed, comparison });
    expect(new TextDecoder().decode(board.keptExchanges()[0]?.recorded.responseBody)).toBe(body);
  });

  it('compares the bytes as sent when the coding is unknown or the body does not decode', () => {
    const bytes = new TextEncoder().encode(body);
    expect(compareExchange(encoded('compress', bytes), answer(body)).verdict).toBe('identical');
    expect(compareExchange(encoded('gzip', bytes), answer(body)).verdict).toBe('identical');
    expect(compareExchange(encoded('gzip', new Uint8Array([0x1f, 0x8b, 1, 2])), answer(body)).verdict).toBe(
      'different',
    );
  });
});
