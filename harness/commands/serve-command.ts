import type { Exchange } from '../compare/exchange.ts';
import { readCorpus } from '../corpus/read-corpus.ts';
import { RecordedAnswers, startServeCorpus } from '../proxy/serve-corpus.ts';
import { untilStopped } from './record-command.ts';

/** `serve FILE --port N`: answers from the corpus, byte for byte, until SIGINT or SIGTERM. */
export async function serveCommand(file: string, flags: { port: number; host: string }): Promise<number> {
  const exchanges: Exchange[] = [];
  for await (const exchange of readCorpus(file)) exchanges.push(exchange);
  const server = startServeCorpus(new RecordedAnswers(exchanges), { port: flags.port, hostname: flags.host });
  console.log(`serving ${exchanges.length} recorded exchanges from ${file} on http://${flags.host}:${server.port}`);
  await untilStopped();
  await server.stop();
  return 0;
}
