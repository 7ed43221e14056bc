import type { ExchangeComparison } from './compare-exchange.ts';
import type { Exchange } from './exchange.ts';
import { endpointKey, endpointOf } from './exchange.ts';
import type { FieldDifference } from './field-difference.ts';
import { generalizePath } from './json-path.ts';

/** What happened to one recorded exchange in a run: compared, or failed (no answer to compare). */
export type ExchangeOutcome =
  | { index: number; recorded: Exchange; replayed: ExchangeAnswer; comparison: ExchangeComparison }
  | { index: number; recorded: Exchange; error: string };

export type ExchangeAnswer = Pick<Exchange, 'status' | 'responseHeaders' | 'responseBody'>;

/** The `--json` document of a run. */
export interface RunSummary {
  exchanges: number;
  identical: number;
  different: number;
  noise_only: number;
  failed: number;
  /** Share of exchanges that differ beyond noise or got no answer: 0 when every answer matched. */
  score: number;
  endpoints: EndpointSummary[];
  differences: DifferenceSummary[];
}

export interface EndpointSummary {
  method: string;
  path: string;
  exchanges: number;
  different: number;
  /** Fields that differed beyond noise, array indices generalised (`$.data[*].price`), by descending count. */
  fields: Array<{ path: string; count: number; example: { recorded?: unknown; replayed?: unknown } }>;
}

export interface DifferenceSummary {
  index: number;
  method: string;
  url: string;
  status: { recorded: number; replayed: number | null };
  /** The fields held against the answer (noise and ignored ones left out); `error` for a failed exchange. */
  fields: Array<Omit<FieldDifference, 'allowed'>>;
}

/** A differing exchange kept whole, for the report to show both bodies side by side. */
export interface KeptExchange {
  index: number;
  recorded: Exchange;
  replayed?: ExchangeAnswer;
  fields: FieldDifference[];
  error?: string;
}

/** Fields forgiven as noise or by a rule during the run, per endpoint. */
export interface ForgivenSummary {
  method: string;
  path: string;
  fields: Array<{ path: string; count: number; allowed: 'noise' | 'ignored' }>;
}

export interface ScoreboardOptions {
  /** How many differing exchanges keep their bodies for the report (memory stays bounded). Default 100. */
  keep?: number;
  /** At most this many fields are listed per differing exchange. Default 200. */
  fieldsPerExchange?: number;
}

/**
 * Adds up the outcomes of a run, in any order (a concurrent replay finishes out of order), into the score and
 * the `--json` document. Memory grows with the number of differing exchanges, not with the run.
 */
export class Scoreboard {
  private counts = { exchanges: 0, identical: 0, different: 0, noise_only: 0, failed: 0 };
  private readonly endpoints = new Map<
    string,
    {
      method: string;
      path: string;
      exchanges: number;
      different: number;
      fields: Map<string, EndpointSummary['fields'][number]>;
    }
  >();
  private readonly forgiven = new Map<string, Map<string, { count: number; allowed: 'noise' | 'ignored' }>>();
  private readonly differences: DifferenceSummary[] = [];
  private readonly kept: KeptExchange[] = [];

  constructor(private readonly options: ScoreboardOptions = {}) {}

  add(outcome: ExchangeOutcome): void {
    const endpoint = endpointOf(outcome.recorded);
    const key = endpointKey(endpoint);
    let entry = this.endpoints.get(key);
    if (!entry) {
      entry = { ...endpoint, exchanges: 0, different: 0, fields: new Map() };
      this.endpoints.set(key, entry);
    }
    entry.exchanges++;
    this.counts.exchanges++;
    const base = { index: outcome.index, method: endpoint.method, url: outcome.recorded.url };
    if ('error' in outcome) {
      this.counts.failed++;
      entry.different++;
      this.differences.push({
        ...base,
        status: { recorded: outcome.recorded.status, replayed: null },
        fields: [{ path: 'error', replayed: outcome.error }],
      });
      this.keep({ index: outcome.index, recorded: outcome.recorded, fields: [], error: outcome.error });
      return;
    }
    const { comparison } = outcome;
    this.counts[comparison.verdict]++;
    for (const field of comparison.fields) if (field.allowed) this.forgive(key, field);
    if (comparison.verdict !== 'different') return;
    entry.different++;
    const held = comparison.fields.filter((field) => !field.allowed);
    for (const field of held) {
      const path = generalizePath(field.path);
      const known = entry.fields.get(path);
      if (known) known.count++;
      else entry.fields.set(path, { path, count: 1, example: { recorded: field.recorded, replayed: field.replayed } });
    }
    this.differences.push({
      ...base,
      status: { recorded: outcome.recorded.status, replayed: outcome.replayed.status },
      fields: held.slice(0, this.options.fieldsPerExchange ?? 200).map(({ allowed: _, ...field }) => field),
    });
    this.keep({
      index: outcome.index,
      recorded: outcome.recorded,
      replayed: outcome.replayed,
      fields: comparison.fields,
    });
  }

  private forgive(key: string, field: FieldDifference): void {
    let fields = this.forgiven.get(key);
    if (!fields) {
      fields = new Map();
      this.forgiven.set(key, fields);
    }
    const path = generalizePath(field.path);
    const known = fields.get(path);
    if (known) known.count++;
    else fields.set(path, { count: 1, allowed: field.allowed as 'noise' | 'ignored' });
  }

  private keep(exchange: KeptExchange): void {
    if (this.kept.length < (this.options.keep ?? 100)) this.kept.push(exchange);
  }

  summary(): RunSummary {
    const { exchanges, different, failed } = this.counts;
    return {
      ...this.counts,
      score: exchanges === 0 ? 0 : (different + failed) / exchanges,
      endpoints: [...this.endpoints.values()].map((entry) => ({
        method: entry.method,
        path: entry.path,
        exchanges: entry.exchanges,
        different: entry.different,
        fields: [...entry.fields.values()].sort((a, b) => b.count - a.count || a.path.localeCompare(b.path)),
      })),
      differences: [...this.differences].sort((a, b) => a.index - b.index),
    };
  }

  /** The first differing exchanges with their bodies, by index. */
  keptExchanges(): KeptExchange[] {
    return [...this.kept].sort((a, b) => a.index - b.index);
  }

  /** What noise and ignore rules forgave in this run. */
  forgivenFields(): ForgivenSummary[] {
    return [...this.forgiven.entries()].map(([key, fields]) => {
      const [method, path] = splitKey(key);
      return {
        method,
        path,
        fields: [...fields.entries()]
          .map(([field, seen]) => ({ path: field, ...seen }))
          .sort((a, b) => b.count - a.count || a.path.localeCompare(b.path)),
      };
    });
  }
}

function splitKey(key: string): [string, string] {
  const space = key.indexOf(' ');
  return [key.slice(0, space), key.slice(space + 1)];
}

/** The summary of a finished set of outcomes: `new Scoreboard()` fed with each one. */
export function score(outcomes: Iterable<ExchangeOutcome>, options?: ScoreboardOptions): RunSummary {
  const board = new Scoreboard(options);
  for (const outcome of outcomes) board.add(outcome);
  return board.summary();
}
