import { compareExchange } from '../compare/compare-exchange.ts';
import { endpointOf } from '../compare/exchange.ts';
import { Scoreboard } from '../compare/score.ts';
import { readCorpus } from '../corpus/read-corpus.ts';
import { type ComparisonFlags, comparisonOptions } from './comparison-options.ts';
import { finishRun, type RunOutputs } from './finish-run.ts';
import { UsageError } from './usage-error.ts';

/**
 * `compare PRIMARY CANDIDATE`: the replay's comparison offline, between two corpora of the same requests paired
 * by position (both streamed, so memory stays bounded whatever their size).
 */
export async function compareCommand(
  primary: string,
  candidate: string,
  flags: ComparisonFlags & RunOutputs,
): Promise<number> {
  const started = performance.now();
  const options = await comparisonOptions(primary, flags);
  const board = new Scoreboard({ ignore: options.compare.ignore });
  const a = readCorpus(primary)[Symbol.asyncIterator]();
  const b = readCorpus(candidate)[Symbol.asyncIterator]();
  for (let index = 0; ; index++) {
    const [x, y] = await Promise.all([a.next(), b.next()]);
    if (x.done && y.done) break;
    if (x.done || y.done) {
      const [ended, other] = x.done ? [primary, candidate] : [candidate, primary];
      throw new UsageError(
        `${ended}: ends at entry ${index}, ${other} has more entries; both must hold the same requests`,
      );
    }
    const recorded = endpointOf(x.value);
    const replayed = endpointOf(y.value);
    if (recorded.method !== replayed.method || recorded.path !== replayed.path) {
      throw new UsageError(
        `${candidate}: entry ${index} is ${replayed.method} ${replayed.path}, ${primary} has ${recorded.method} ${recorded.path} there`,
      );
    }
    board.add({
      index,
      recorded: x.value,
      replayed: y.value,
      comparison: compareExchange(x.value, y.value, { ...options.compare, index }),
    });
  }
  return finishRun(board, {
    subject: `${primary} ↔ ${candidate}`,
    noise: options.noise,
    outputs: flags,
    seconds: (performance.now() - started) / 1000,
    correspondence: options.correspondence,
  });
}
