import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Exchange } from '../compare/exchange.ts';
import { fromHarEntry } from './har.ts';

/** A corpus that cannot be read: the message names the file and, where there is one, the entry. */
export class CorpusError extends Error {}

export type CorpusFormat = 'har' | 'jsonl';

/** `.jsonl` / `.ndjson`: one HAR entry a line, read streaming. Anything else: a HAR 1.2 document. */
export function corpusFormat(file: string): CorpusFormat {
  return /\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'har';
}

/**
 * The exchanges of a corpus in recorded order. A `.jsonl` corpus is streamed with bounded memory (one line at a
 * time); a `.har` document is parsed whole, as HAR tools do. Throws CorpusError on the first bad entry.
 */
export function readCorpus(file: string): AsyncIterable<Exchange> {
  return corpusFormat(file) === 'jsonl' ? readJsonLines(file) : readHar(file);
}

async function* readHar(file: string): AsyncIterable<Exchange> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new CorpusError(`${file}: ${describe(err)}`);
  }
  const entries = (document as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) throw new CorpusError(`${file}: not a HAR document (no log.entries array)`);
  for (const [index, entry] of entries.entries()) {
    yield parseEntry(entry, () => `${file}: log.entries[${index}]`);
  }
}

async function* readJsonLines(file: string): AsyncIterable<Exchange> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let pending = '';
  let line = 0;
  let index = 0;
  const parseLine = (text: string) => {
    line++;
    if (!text.trim()) return undefined;
    const where = `${file}:${line}: entry ${index}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new CorpusError(`${where}: ${describe(err)}`);
    }
    index++;
    return parseEntry(value, () => where);
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      pending += chunk;
      let newline = pending.indexOf('\n');
      let start = 0;
      while (newline >= 0) {
        const exchange = parseLine(pending.slice(start, newline));
        if (exchange) yield exchange;
        start = newline + 1;
        newline = pending.indexOf('\n', start);
      }
      pending = pending.slice(start);
    }
  } catch (err) {
    if (err instanceof CorpusError) throw err;
    throw new CorpusError(`${file}: ${describe(err)}`);
  } finally {
    stream.destroy();
  }
  const last = parseLine(pending);
  if (last) yield last;
}

function parseEntry(value: unknown, where: () => string): Exchange {
  try {
    return fromHarEntry(value);
  } catch (err) {
    throw new CorpusError(`${where()}: ${describe(err)}`);
  }
}

function describe(err: unknown): string {
  const error = err as NodeJS.ErrnoException;
  if (error?.code === 'ENOENT') return 'no such file';
  if (error?.code === 'EISDIR') return 'is a directory';
  if (error?.code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(err);
}
