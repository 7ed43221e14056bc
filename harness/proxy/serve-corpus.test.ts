import { describe, expect, it } from 'bun:test';
import { jsonExchange } from '../testing/exchanges.ts';
import { RecordedAnswers, startServeCorpus } from './serve-corpus.ts';

const URL = 'http://legacy/api/pms/v1/property/getRoomsDetails?api_key=k';
const body = '{"data":[{"id":4,"sqm_area":22.0}]}';

async function served(responseBody: Uint8Array) {
  const exchange = {
    ...jsonExchange(URL, '', {
      responseHeaders: [
        ['content-type', 'application/json'],
        ['content-encoding', 'gzip'],
      ],
    }),
    responseBody,
  };
  const server = startServeCorpus(new RecordedAnswers([exchange]), { port: 0, hostname: '127.0.0.1' });
  try {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/pms/v1/property/getRoomsDetails?api_key=k`, {
      decompress: false,
    } as RequestInit);
    return { encoding: res.headers.get('content-encoding'), bytes: new Uint8Array(await res.arrayBuffer()) };
  } finally {
    server.stop(true);
  }
}

describe('harness serve', () => {
  it('serves a compressed recorded answer as recorded, Content-Encoding and compressed bytes', async () => {
    const gzipped = Bun.gzipSync(Buffer.from(body));
    expect(await served(gzipped)).toEqual({ encoding: 'gzip', bytes: gzipped });
  });

  it("serves a browser's or mitmproxy's HAR answer, its body kept decoded, without the Content-Encoding it no longer has", async () => {
    expect(await served(new TextEncoder().encode(body))).toEqual({
      encoding: null,
      bytes: new TextEncoder().encode(body),
    });
  });
});
