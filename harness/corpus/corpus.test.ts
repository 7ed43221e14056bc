import { afterAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange } from '../compare/exchange.ts';
import { CorpusWriter } from './corpus-writer.ts';
import { CorpusError, readCorpus } from './read-corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'qc-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(file: string): Promise<Exchange[]> {
  const out: Exchange[] = [];
  for await (const exchange of readCorpus(file)) out.push(exchange);
  return out;
}

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

const exchanges: Exchange[] = [
  {
    method: 'GET',
    url: 'http://legacy/api/pms/v1/property/getRoomsDetails?api_key=k&room_id=4',
    requestHeaders: [['accept', '*/*']],
    requestBody: null,
    status: 200,
    responseHeaders: [['content-type', 'application/json']],
    responseBody: utf8('{"data":[{"name":"Caf\\u00e9 <\\/p> Café"}]}'),
  },
  {
    method: 'POST',
    url: 'http://legacy/api/pms/v1/booking/ackBooking?api_key=k',
    requestHeaders: [['content-type', 'application/octet-stream']],
    // Not UTF-8: kept as base64, on the request too.
    requestBody: bytes(0xff, 0x00, 0xfe, 0x7b),
    status: 404,
    responseHeaders: [
      ['content-type', 'application/json'],
      ['x-support-ticket', 'QC-1'],
    ],
    responseBody: bytes(0x1f, 0x8b, 0x08, 0x00, 0xc3),
  },
  {
    method: 'POST',
    url: '/api/pms/v1/availability/updateAvailability',
    requestHeaders: [],
    requestBody: new Uint8Array(0),
    status: 200,
    responseHeaders: [],
    // A byte-order mark is part of the bytes, not an encoding hint to drop.
    responseBody: bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d),
  },
];

describe('corpus files', () => {
  for (const name of ['round.har', 'round.jsonl']) {
    it(`keeps the exact request and response bytes through ${name}`, async () => {
      const file = join(dir, name);
      const writer = await CorpusWriter.open(file);
      for (const exchange of exchanges) await writer.append(exchange);
      await writer.close();
      expect(await read(file)).toEqual(exchanges);
    });
  }

  it('writes base64 only for bytes that are not UTF-8, and HAR 1.2 fields tools expect', async () => {
    const file = join(dir, 'shape.har');
    const writer = await CorpusWriter.open(file);
    for (const exchange of exchanges)
      await writer.append(exchange, { startedDateTime: '2026-01-01T00:00:00.000Z', time: 3 });
    await writer.close();
    const har = JSON.parse(readFileSync(file, 'utf8'));
    expect(har.log.version).toBe('1.2');
    const [first, second] = har.log.entries;
    expect(first.response.content).toEqual({
      size: 43, // bytes: é is two
      mimeType: 'application/json',
      text: '{"data":[{"name":"Caf\\u00e9 <\\/p> Café"}]}',
    });
    expect(first.request.queryString).toEqual([
      { name: 'api_key', value: 'k' },
      { name: 'room_id', value: '4' },
    ]);
    expect(first.request.postData).toBeUndefined();
    expect(second.request.postData).toEqual({
      mimeType: 'application/octet-stream',
      text: '/wD+ew==',
      encoding: 'base64',
    });
    expect(second.response.content.encoding).toBe('base64');
    expect(second.startedDateTime).toBe('2026-01-01T00:00:00.000Z');
  });

  it('leaves a valid HAR document after every append, and appends to an existing .jsonl', async () => {
    const file = join(dir, 'growing.har');
    const writer = await CorpusWriter.open(file);
    expect(JSON.parse(readFileSync(file, 'utf8')).log.entries).toEqual([]);
    for (const [i, exchange] of exchanges.entries()) {
      await writer.append(exchange);
      expect(JSON.parse(readFileSync(file, 'utf8')).log.entries).toHaveLength(i + 1);
    }
    await writer.close();
    await expect(CorpusWriter.open(file)).rejects.toThrow(`${file}: already exists`);

    const lines = join(dir, 'growing.jsonl');
    for (const exchange of exchanges) {
      const w = await CorpusWriter.open(lines);
      await w.append(exchange);
      await w.close();
    }
    expect(await read(lines)).toEqual(exchanges);
  });

  it('reads HAR that other tools export, ignoring the fields it does not use', async () => {
    const file = join(dir, 'browser.har');
    writeFileSync(
      file,
      JSON.stringify({
        log: {
          version: '1.2',
          creator: { name: 'WebInspector', version: '537.36' },
          pages: [],
          entries: [
            {
              _initiator: { type: 'other' },
              request: {
                method: 'GET',
                url: 'https://pms.example/api/pms/v1/booking/getBookings',
                headers: [],
                cookies: [],
              },
              response: { status: 200, statusText: 'OK', headers: [], content: { size: 0, mimeType: 'x-unknown' } },
            },
          ],
        },
      }),
    );
    const [exchange] = await read(file);
    expect(exchange).toMatchObject({ method: 'GET', status: 200, requestBody: null, responseBody: new Uint8Array(0) });
  });

  it('names the file and the entry it cannot read', async () => {
    const cases: Array<[string, string, string]> = [
      ['not-json.har', '{"log":', 'not-json.har: JSON Parse error'],
      ['no-entries.har', '{"log":{}}', 'no-entries.har: not a HAR document (no log.entries array)'],
      [
        'bad-entry.har',
        JSON.stringify({
          log: {
            entries: [
              { request: { method: 'GET', url: '/a' }, response: { status: 200, content: {} } },
              { request: { url: '/b' } },
            ],
          },
        }),
        'bad-entry.har: log.entries[1]: request.method missing',
      ],
      [
        'bad-base64.har',
        JSON.stringify({
          log: {
            entries: [
              {
                request: { method: 'GET', url: '/a' },
                response: { status: 200, content: { text: 'x', encoding: 'gzip' } },
              },
            ],
          },
        }),
        'bad-base64.har: log.entries[0]: response.content: unknown body encoding "gzip"',
      ],
      [
        'bad-line.jsonl',
        '{"request":{"method":"GET","url":"/a"},"response":{"status":200,"content":{}}}\n\n{oops\n',
        'bad-line.jsonl:3: entry 1: JSON Parse error',
      ],
      ['missing.jsonl', null as unknown as string, 'missing.jsonl: no such file'],
    ];
    for (const [name, content, message] of cases) {
      const file = join(dir, name);
      if (content !== null) writeFileSync(file, content);
      const error = await read(file).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(CorpusError);
      expect((error as Error).message).toStartWith(join(dir, message.split(':')[0] as string));
      expect((error as Error).message).toContain(message.slice(message.indexOf(':') + 1).trim());
    }
  });
});
