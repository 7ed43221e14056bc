import { Scoreboard } from '../compare/score.ts';
import { readCorpus } from '../corpus/read-corpus.ts';
import { DRY_RUN_HEADER, honoursDryRun } from '../replay/dry-run.ts';
import { KeyMapError, parseKeyMap } from '../replay/key-map.ts';
import { replayCorpus } from '../replay/replay-corpus.ts';
import { type ComparisonFlags, comparisonOptions } from './comparison-options.ts';
import { finishRun, type RunOutputs } from './finish-run.ts';
import { UsageError } from './usage-error.ts';

export interface ReplayFlags extends ComparisonFlags, RunOutputs {
  target: string;
  keyMap?: string[];
  concurrency: number;
  rate?: number;
  timeout: number;
  /** Replay writes for real (default: every request asks the target for a dry run). */
  allowWrites?: boolean;
}

/** `replay FILE --target URL`: every recorded request sent to the target, each answer compared and scored. */
export async function replayCommand(file: string, flags: ReplayFlags): Promise<number> {
  let keyMap: Map<string, string>;
  try {
    keyMap = parseKeyMap(flags.keyMap ?? []);
  } catch (err) {
    if (err instanceof KeyMapError) throw new UsageError(err.message);
    throw err;
  }
  if (!/^https?:\/\/[^/]/.test(flags.target)) throw new UsageError(`--target ${flags.target}: not an http(s) URL`);
  if (flags.allowWrites) {
    console.error(
      `harness: --allow-writes: writes are replayed for real against ${flags.target}: updateAvailability, ` +
        'postExternalPropertyData, ackBooking, postRoomAssignment and getBookings change its state',
    );
  } else {
    const check = await honoursDryRun(flags.target, flags.timeout);
    if (check.unreachable !== undefined)
      throw new UsageError(`--target ${flags.target}: no answer (${check.unreachable}); nothing was replayed`);
    if (!check.confirmed)
      throw new UsageError(
        `--target ${flags.target}: does not answer dry runs (${DRY_RUN_HEADER}), so replaying would write to it; ` +
          'point it at the port (which answers every replayed request as a rolled-back dry run) or pass --allow-writes',
      );
  }
  const started = performance.now();
  const options = await comparisonOptions(file, flags);
  const board = new Scoreboard({ ignore: options.compare.ignore });
  await replayCorpus(readCorpus(file), {
    target: flags.target,
    keyMap,
    concurrency: flags.concurrency,
    rate: flags.rate,
    timeoutMs: flags.timeout,
    compare: options.compare,
    dryRun: !flags.allowWrites,
    onOutcome: (outcome) => board.add(outcome),
  });
  return finishRun(board, {
    subject: `${file} → ${flags.target}`,
    noise: options.noise,
    outputs: flags,
    seconds: (performance.now() - started) / 1000,
    correspondence: options.correspondence,
  });
}
