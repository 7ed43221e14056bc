import { type FileHandle, open, stat } from 'node:fs/promises';
import type { Exchange } from '../compare/exchange.ts';
import { CREATOR, type ExchangeTiming, type HarEntry, toHarEntry } from './har.ts';
import { CorpusError, corpusFormat } from './read-corpus.ts';

const HAR_HEAD = `{"log":{"version":"1.2","creator":${JSON.stringify(CREATOR)},"entries":[`;
const HAR_TAIL = '\n]}}\n';

/**
 * Appends exchanges to a corpus as they complete, each write reaching the file before the next starts, so a crash
 * loses at most the exchanges still in flight. A `.jsonl` corpus gets one line per entry (an existing one is
 * appended to). A `.har` document stays valid after every append: each entry is written over the closing
 * brackets, which are written again after it.
 */
export class CorpusWriter {
  private queue: Promise<void> = Promise.resolve();
  private entries = 0;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly format: 'har' | 'jsonl',
    private position: number,
  ) {}

  static async open(file: string): Promise<CorpusWriter> {
    const format = corpusFormat(file);
    const size = await stat(file).then(
      (s) => s.size,
      () => 0,
    );
    if (format === 'har' && size > 0) {
      throw new CorpusError(`${file}: already exists; record into a new .har file, or into a .jsonl file to append`);
    }
    let handle: FileHandle;
    try {
      handle = await open(file, format === 'har' ? 'w' : 'a');
    } catch (err) {
      throw new CorpusError(`${file}: cannot write (${(err as Error).message})`);
    }
    const writer = new CorpusWriter(file, handle, format, size);
    if (format === 'har') {
      await handle.write(HAR_HEAD + HAR_TAIL, 0);
      writer.position = HAR_HEAD.length;
    }
    return writer;
  }

  append(exchange: Exchange, timing?: ExchangeTiming): Promise<void> {
    return this.appendEntry(toHarEntry(exchange, timing));
  }

  appendEntry(entry: HarEntry): Promise<void> {
    const json = JSON.stringify(entry);
    const write = async () => {
      if (this.format === 'jsonl') {
        await this.handle.write(`${json}\n`);
      } else {
        const text = `${this.entries === 0 ? '\n' : ',\n'}${json}`;
        const bytes = Buffer.from(text + HAR_TAIL);
        await this.handle.write(bytes, 0, bytes.length, this.position);
        this.position += bytes.length - HAR_TAIL.length;
      }
      this.entries++;
    };
    this.queue = this.queue.then(write);
    return this.queue;
  }

  async close(): Promise<void> {
    await this.queue.catch(() => {});
    await this.handle.close();
  }
}
