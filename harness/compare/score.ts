import type { ExchangeComparison } from './compare-exchange.ts';
import { decodedAnswer } from './content-coding.ts';
import type { Exchange } from './exchange.ts';
import { endpointKey, endpointOf } from './exchange.ts';
import {
  DIFFERENCE_CLASSES,
  type DifferenceClass,
  type FieldDifference,
  severityOf,
  worstClass,
} from './field-difference.ts';
import { type IgnoreRules, rulesApplied, ruleText } from './ignore-rules.ts';
import { generalizePath } from './json-path.ts';

/** What happened to one recorded exchange in a run: compared, or failed (no answer to compare). */
export type ExchangeOutcome =
  | {
      index: number;
      recorded: Exchange;
      replayed: ExchangeAnswer;
      comparison: ExchangeComparison;
      /** Path and query as the replay sent them, when the api_key, ids or dates were rewritten. */
      sent?: string;
    }
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
  /** Differing exchanges by their most severe difference class (DIFFERENCE_CLASSES, most severe first). */
  classes: Record<DifferenceClass, number>;
  endpoints: EndpointSummary[];
  differences: DifferenceSummary[];
  /**
   * What each ignore rule forgave: every rule in force (a rule that never applied with 0), most exchanges first,
   * then in file order. Forgiven differences are not differences: the score leaves them out either way.
   */
  ignore_rules: RuleForgiveness[];
}

/** One ignore rule and the exchanges it forgave a difference in. */
export interface RuleForgiveness {
  /** The rule as `METHOD PATH FIELD` (ruleText). */
  rule: string;
  /**
   * Exchanges in which it forgave at least one difference, each once however many fields it covered there (an
   * exchange still different for other fields counts too; one forgiven by two rules counts under both).
   */
  exchanges: number;
  /**
   * The first of them and the field it forgave there: `index` in a run, the UTC `date` in the service's shadow
   * scores. Absent while the rule has forgiven nothing.
   */
  sample?: { path: string; index?: number; date?: string };
}

export interface EndpointSummary {
  method: string;
  path: string;
  exchanges: number;
  different: number;
  /** This endpoint's differing exchanges by their most severe class. */
  classes?: Partial<Record<DifferenceClass, number>>;
  /**
   * Fields that differed beyond noise, array indices generalised (`$.data[*].price`), most severe class first,
   * then by descending count.
   */
  fields: Array<{
    path: string;
    count: number;
    class?: DifferenceClass;
    example: { recorded?: unknown; replayed?: unknown };
  }>;
}

export interface DifferenceSummary {
  index: number;
  method: string;
  url: string;
  /** Path and query as sent, when rewritten (key map, id correspondence, date shift). */
  sent?: string;
  status: { recorded: number; replayed: number | null };
  /** The most severe class among its fields, and its severity (6 failed ... 1 representation). */
  class: DifferenceClass;
  severity: number;
  /** The fields held against the answer (noise and ignored ones left out), most severe first; `error` for a failed exchange. */
  fields: Array<Omit<FieldDifference, 'allowed'>>;
  /** When the exchange took place (ISO 8601, UTC): a sample of the service's shadow scores; a run leaves it out. */
  at?: string;
}

/** A differing exchange kept whole, for the report to show both bodies side by side. */
export interface KeptExchange {
  index: number;
  recorded: Exchange;
  replayed?: ExchangeAnswer;
  fields: FieldDifference[];
  error?: string;
  class?: DifferenceClass;
  sent?: string;
  /** When the exchange took place (ISO 8601, UTC), when known: a sample of the service's shadow scores. */
  at?: string;
}

/** Fields forgiven as noise or by a rule during the run, per endpoint. */
export interface ForgivenSummary {
  method: string;
  path: string;
  fields: Array<{ path: string; count: number; allowed: 'noise' | 'ignored' }>;
}

export interface ScoreboardOptions {
  /**
   * How many differing exchanges of each class keep their bodies for the report (the first ones: memory stays
   * bounded). Default 25.
   */
  keep?: number;
  /** At most this many fields are listed per differing exchange. Default 200. */
  fieldsPerExchange?: number;
  /** The ignore rules the run compares with: each is listed in `ignore_rules`, those that never applied too. */
  ignore?: IgnoreRules;
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
      classes: Partial<Record<DifferenceClass, number>>;
    }
  >();
  private readonly forgiven = new Map<string, Map<string, { count: number; allowed: 'noise' | 'ignored' }>>();
  private readonly differences: DifferenceSummary[] = [];
  private readonly kept: KeptExchange[] = [];
  private readonly keptPerClass = new Map<DifferenceClass, number>();
  private readonly classes = Object.fromEntries(DIFFERENCE_CLASSES.map((c) => [c, 0])) as Record<
    DifferenceClass,
    number
  >;

  private readonly rules = new Map<string, RuleForgiveness & { sample?: { path: string; index: number } }>();

  constructor(private readonly options: ScoreboardOptions = {}) {
    for (const rule of options.ignore?.rules ?? [])
      this.rules.set(ruleText(rule), { rule: ruleText(rule), exchanges: 0 });
  }

  add(outcome: ExchangeOutcome): void {
    const endpoint = endpointOf(outcome.recorded);
    const key = endpointKey(endpoint);
    let entry = this.endpoints.get(key);
    if (!entry) {
      entry = { ...endpoint, exchanges: 0, different: 0, fields: new Map(), classes: {} };
      this.endpoints.set(key, entry);
    }
    entry.exchanges++;
    this.counts.exchanges++;
    const base = { index: outcome.index, method: endpoint.method, url: outcome.recorded.url };
    if ('error' in outcome) {
      this.counts.failed++;
      entry.different++;
      this.countClass(entry, 'failed');
      this.differences.push({
        ...base,
        status: { recorded: outcome.recorded.status, replayed: null },
        class: 'failed',
        severity: severityOf('failed'),
        fields: [{ path: 'error', replayed: outcome.error, class: 'failed' }],
      });
      this.keep({
        index: outcome.index,
        recorded: outcome.recorded,
        fields: [],
        error: outcome.error,
        class: 'failed',
      });
      return;
    }
    const { comparison } = outcome;
    this.counts[comparison.verdict]++;
    for (const field of comparison.fields) if (field.allowed) this.forgive(key, field);
    for (const { rule, path } of rulesApplied(comparison.fields)) {
      const tally = this.rules.get(rule) ?? { rule, exchanges: 0 };
      tally.exchanges++;
      // Outcomes come in any order: the sample is the rule's first exchange in the run.
      if (!tally.sample || outcome.index < tally.sample.index) tally.sample = { path, index: outcome.index };
      this.rules.set(rule, tally);
    }
    if (comparison.verdict !== 'different') return;
    entry.different++;
    const held = comparison.fields.filter((field) => !field.allowed).sort(bySeverity);
    const cls = worstClass(held) ?? 'value';
    this.countClass(entry, cls);
    for (const field of held) {
      const path = generalizePath(field.path);
      const known = entry.fields.get(path);
      if (known) known.count++;
      else
        entry.fields.set(path, {
          path,
          count: 1,
          class: field.class,
          example: { recorded: field.recorded, replayed: field.replayed },
        });
    }
    const sent = outcome.sent === undefined ? {} : { sent: outcome.sent };
    this.differences.push({
      ...base,
      ...sent,
      status: { recorded: outcome.recorded.status, replayed: outcome.replayed.status },
      class: cls,
      severity: severityOf(cls),
      fields: held.slice(0, this.options.fieldsPerExchange ?? 200).map(({ allowed: _, ...field }) => field),
    });
    this.keep({
      index: outcome.index,
      recorded: outcome.recorded,
      replayed: outcome.replayed,
      fields: comparison.fields,
      class: cls,
      ...sent,
    });
  }

  private countClass(entry: { classes: Partial<Record<DifferenceClass, number>> }, cls: DifferenceClass): void {
    this.classes[cls]++;
    entry.classes[cls] = (entry.classes[cls] ?? 0) + 1;
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
    const cls = exchange.class ?? 'value';
    const kept = this.keptPerClass.get(cls) ?? 0;
    if (kept >= (this.options.keep ?? 25)) return;
    this.keptPerClass.set(cls, kept + 1);
    // The bodies as they were compared (decoded from their Content-Encoding): the fields' offsets point into these.
    const { replayed } = exchange;
    this.kept.push({
      ...exchange,
      recorded: decodedAnswer(exchange.recorded),
      ...(replayed ? { replayed: decodedAnswer(replayed) } : {}),
    });
  }

  summary(): RunSummary {
    const { exchanges, different, failed } = this.counts;
    return {
      ...this.counts,
      score: exchanges === 0 ? 0 : (different + failed) / exchanges,
      classes: { ...this.classes },
      endpoints: [...this.endpoints.values()]
        .map((entry) => ({
          method: entry.method,
          path: entry.path,
          exchanges: entry.exchanges,
          different: entry.different,
          classes: entry.classes,
          fields: [...entry.fields.values()].sort(
            (a, b) => bySeverity(a, b) || b.count - a.count || a.path.localeCompare(b.path),
          ),
        }))
        .sort((a, b) => worstOf(b.classes) - worstOf(a.classes) || b.different - a.different),
      differences: [...this.differences].sort((a, b) => b.severity - a.severity || a.index - b.index),
      ignore_rules: [...this.rules.values()]
        .map((tally) => ({ ...tally, ...(tally.sample ? { sample: { ...tally.sample } } : {}) }))
        .sort((a, b) => b.exchanges - a.exchanges),
    };
  }

  /** The differing exchanges kept with their bodies (the first ones of each class), most severe first, then by index. */
  keptExchanges(): KeptExchange[] {
    return [...this.kept].sort(
      (a, b) => severityOf(b.class ?? 'value') - severityOf(a.class ?? 'value') || a.index - b.index,
    );
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

function bySeverity(a: { class?: DifferenceClass }, b: { class?: DifferenceClass }): number {
  return severityOf(b.class ?? 'value') - severityOf(a.class ?? 'value');
}

function worstOf(classes: Partial<Record<DifferenceClass, number>>): number {
  return Math.max(0, ...Object.keys(classes).map((c) => severityOf(c as DifferenceClass)));
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
