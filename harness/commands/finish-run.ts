import { writeFile } from 'node:fs/promises';
import type { Correspondence, CorrespondenceSummary } from '../compare/correspondence.ts';
import { DIFFERENCE_CLASSES, type DifferenceClass, severityOf } from '../compare/field-difference.ts';
import type { NoiseModel } from '../compare/noise.ts';
import type { RunSummary, Scoreboard } from '../compare/score.ts';
import { NO_REDACTION, REDACTION, type Redactor } from '../report/redact.ts';
import { renderReport } from '../report/render-report.ts';
import { readHistory, recordRun } from '../report/run-history.ts';
import { percent } from '../report/score-plot.ts';

export interface RunOutputs {
  json?: string;
  report?: string;
  history?: string;
  /** false with `--no-redact`: secrets and guest data shown as recorded. */
  redact?: boolean;
  /** The least severe difference class that makes the exit status 1 (default: any difference). */
  failOn?: DifferenceClass;
}

/** The `--json` document: the run's summary and the id correspondence it learnt. */
export type FinishedRun = RunSummary & { correspondence: CorrespondenceSummary };

/**
 * What every comparing command does at the end: print the summary, write `--json`, `--history` and `--report`
 * (secrets and guest data redacted unless `--no-redact`), and answer the exit status: 1 when some exchange
 * differs at or above the `--fail-on` class (any class by default), 0 otherwise.
 */
export async function finishRun(
  board: Scoreboard,
  context: {
    subject: string;
    noise?: NoiseModel;
    outputs: RunOutputs;
    seconds: number;
    correspondence: Correspondence;
  },
): Promise<number> {
  const { outputs } = context;
  const redactor: Redactor = outputs.redact === false ? NO_REDACTION : REDACTION;
  const summary = redactor.summary(board.summary());
  const document: FinishedRun = { ...summary, correspondence: context.correspondence.summary() };
  const finishedAt = new Date().toISOString();
  // With `--json -` the document owns stdout and the human summary goes to stderr.
  if (outputs.json === '-') process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  else if (outputs.json) await writeFile(outputs.json, `${JSON.stringify(document, null, 2)}\n`);
  printSummary(document, board, context.seconds, outputs.json === '-' ? process.stderr : process.stdout);
  if (outputs.history) await recordRun(outputs.history, summary, finishedAt, context.subject);
  if (outputs.report) {
    const html = renderReport({
      title: 'Compatibility run',
      subject: context.subject,
      finishedAt,
      summary,
      kept: redactor.kept(board.keptExchanges()),
      forgiven: board.forgivenFields(),
      noise: redactor.noise(context.noise?.summary() ?? []),
      history: outputs.history ? await readHistory(outputs.history) : [],
      correspondence: document.correspondence,
      redacted: outputs.redact !== false,
    });
    await writeFile(outputs.report, html);
  }
  const threshold = severityOf(outputs.failOn ?? 'representation');
  return summary.differences.some((difference) => difference.severity >= threshold) ? 1 : 0;
}

function printSummary(document: FinishedRun, board: Scoreboard, seconds: number, stream: NodeJS.WriteStream): void {
  const out = (line: string) => stream.write(`${line}\n`);
  const rate = seconds > 0 ? ` in ${seconds.toFixed(1)} s (${Math.round(document.exchanges / seconds)}/s)` : '';
  out(
    `${document.exchanges} exchanges${rate}: ${document.identical} identical, ${document.noise_only} noise only, ` +
      `${document.different} different, ${document.failed} failed. ` +
      (document.exchanges ? `Score ${percent(document.score)}.` : 'No score: nothing was compared.'),
  );
  const classes = DIFFERENCE_CLASSES.filter((c) => document.classes[c] > 0).map((c) => `${c} ${document.classes[c]}`);
  if (classes.length) out(`  by class, most severe first: ${classes.join(', ')}`);
  for (const endpoint of document.endpoints.filter((e) => e.different > 0)) {
    const fields = endpoint.fields
      .slice(0, 5)
      .map((f) => `${f.path} x${f.count}${f.class ? ` [${f.class}]` : ''}`)
      .join(', ');
    out(
      `  ${endpoint.method} ${endpoint.path}: ${endpoint.different} of ${endpoint.exchanges} differ${fields ? ` (${fields})` : ''}`,
    );
  }
  for (const endpoint of board.forgivenFields()) {
    out(
      `  noise ${endpoint.method} ${endpoint.path}: ${endpoint.fields.map((f) => `${f.path} x${f.count} (${f.allowed})`).join(', ')}`,
    );
  }
  for (const { rule, exchanges, sample } of document.ignore_rules) {
    out(
      `  ignore rule ${rule}: ${exchanges ? `forgave ${exchanges} exchange${exchanges === 1 ? '' : 's'} (first #${sample?.index} ${sample?.path})` : 'forgave nothing'}`,
    );
  }
  const { mappings, conflicts, date_shift_days } = document.correspondence;
  if (mappings.length || date_shift_days) {
    const kinds = new Map<string, number>();
    for (const mapping of mappings) kinds.set(mapping.kind, (kinds.get(mapping.kind) ?? 0) + 1);
    out(
      `  ids mapped: ${[...kinds].map(([kind, n]) => `${kind} x${n}`).join(', ') || 'none'}` +
        `${date_shift_days ? `; dates shifted ${date_shift_days} days` : ''}` +
        `${conflicts.length ? `; ${conflicts.length} contradicting the mapping` : ''} (the full list in --json and --report)`,
    );
  }
}
