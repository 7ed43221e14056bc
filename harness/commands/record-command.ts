import { CorpusWriter } from '../corpus/corpus-writer.ts';
import { startRecordProxy } from '../proxy/record-proxy.ts';
import { Redaction } from '../proxy/redaction.ts';
import { UsageError } from './usage-error.ts';

export interface RecordFlags {
  upstream: string;
  out: string;
  port: number;
  host: string;
  redact?: string[];
}

/** `record --upstream URL --out FILE`: a recording reverse proxy, until SIGINT or SIGTERM. */
export async function recordCommand(flags: RecordFlags): Promise<number> {
  if (!/^https?:\/\/[^/]/.test(flags.upstream))
    throw new UsageError(`--upstream ${flags.upstream}: not an http(s) URL`);
  const writer = await CorpusWriter.open(flags.out);
  const server = startRecordProxy({
    upstream: flags.upstream,
    writer,
    redaction: new Redaction(flags.redact ?? []),
    port: flags.port,
    hostname: flags.host,
  });
  console.log(`recording http://${flags.host}:${server.port} -> ${flags.upstream} into ${flags.out}`);
  await untilStopped();
  // In-flight exchanges finish and are written before the file closes.
  await server.stop();
  await writer.close();
  return 0;
}

export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
