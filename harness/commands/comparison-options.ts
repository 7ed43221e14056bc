import { readFile } from 'node:fs/promises';
import type { CompareOptions } from '../compare/compare-exchange.ts';
import { DEFAULT_HEADERS } from '../compare/compare-exchange.ts';
import { Correspondence, CorrespondenceError } from '../compare/correspondence.ts';
import { IgnoreRules, IgnoreRulesError } from '../compare/ignore-rules.ts';
import { learnNoise, type NoiseModel, PairingError } from '../compare/noise.ts';
import { readCorpus } from '../corpus/read-corpus.ts';
import { daysSince, recordedOn } from '../corpus/recorded-on.ts';
import { UsageError } from './usage-error.ts';

export interface ComparisonFlags {
  secondary?: string;
  ignore?: string;
  headers?: string;
  /** `FIELD:RECORDED=REPLAYED` pairs set before the run (`room_id:160=1`). */
  map?: string[];
  /** Days every date of a request moves (and a replayed date corresponds to the recorded one moved so). */
  shiftDates?: number | 'auto';
}

/** The compare options a command's flags ask for: headers, ignore rules, and noise learnt from a secondary. */
export async function comparisonOptions(
  primary: string,
  flags: ComparisonFlags,
): Promise<{ compare: CompareOptions; noise?: NoiseModel; correspondence: Correspondence }> {
  let shift = 0;
  if (flags.shiftDates === 'auto') {
    const day = await recordedOn(primary);
    if (!day)
      throw new UsageError(`${primary}: no startedDateTime in its first entry; give --shift-dates a number of days`);
    shift = daysSince(day);
  } else shift = flags.shiftDates ?? 0;
  const correspondence = new Correspondence(shift);
  for (const spec of flags.map ?? []) {
    try {
      const pair = Correspondence.parsePair(spec);
      correspondence.setExplicit(pair.kind, pair.recorded, pair.replayed);
    } catch (err) {
      if (err instanceof CorrespondenceError) throw new UsageError(err.message);
      throw err;
    }
  }
  const headers = flags.headers
    ? flags.headers
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
    : DEFAULT_HEADERS;
  let ignore: IgnoreRules | undefined;
  if (flags.ignore) {
    let text: string;
    try {
      text = await readFile(flags.ignore, 'utf8');
    } catch (err) {
      throw new UsageError(`${flags.ignore}: cannot read the ignore rules (${(err as Error).message})`);
    }
    try {
      ignore = IgnoreRules.parse(text);
    } catch (err) {
      if (err instanceof IgnoreRulesError) throw new UsageError(`${flags.ignore}: ${err.message}`);
      throw err;
    }
  }
  let noise: NoiseModel | undefined;
  if (flags.secondary) {
    try {
      noise = await learnNoise(readCorpus(primary), readCorpus(flags.secondary), { headers });
    } catch (err) {
      if (err instanceof PairingError)
        throw new UsageError(`${flags.secondary}: ${err.message} (paired with ${primary})`);
      throw err;
    }
  }
  return { compare: { headers, ignore, noise, correspondence }, noise, correspondence };
}
