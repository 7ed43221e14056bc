import { writeFile } from 'node:fs/promises';
import type { NoiseModel } from '../compare/noise.ts';
import type { Scoreboard } from '../compare/score.ts';
import { renderReport } from '../report/render-report.ts';
import { readHistory, recordRun } from '../report/run-history.ts';
import { percent } from '../report/score-plot.ts';

export interface RunOutputs {
  json?: string;
  report?: string;
  history?: string;
}

/**
 * What every comparing command does at the end: print the summary, write `--json`, `--history` and `--report`,
 * and answer the exit status (0 when nothing differs beyond noise, 1 otherwise).
 */
export async function finishRun(
  board: Scoreboard,
  context: { subject: string; noise?: NoiseModel; ignoreRules: string[]; outputs: RunOutputs; seconds: number },
): Promise<number> {
  const summary = board.summary();
  const finishedAt = new Date().toISOString();
  const { outputs } = context;
  // With `--json -` the document owns stdout and the human summary goes to stderr.
  if (outputs.json === '-') process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else if (outputs.json) await writeFile(outputs.json, `${JSON.stringify(summary, null, 2)}\n`);
  printSummary(summary, board, context.seconds, outputs.json === '-' ? process.stderr : process.stdout);
  if (outputs.history) await recordRun(outputs.history, summary, finishedAt, context.subject);
  if (outputs.report) {
    const html = renderReport({
      title: 'Compatibility run',
      subject: context.subject,
      finishedAt,
      summary,
      kept: board.keptExchanges(),
      forgiven: board.forgivenFields(),
      noise: context.noise?.summary() ?? [],
      ignoreRules: context.ignoreRules,
      history: outputs.history ? await readHistory(outputs.history) : [],
    });
    await writeFile(outputs.report, html);
  }
  return summary.different + summary.failed > 0 ? 1 : 0;
}

function printSummary(
  summary: ReturnType<Scoreboard['summary']>,
  board: Scoreboard,
  seconds: number,
  stream: NodeJS.WriteStream,
): void {
  const out = (line: string) => stream.write(`${line}\n`);
  const rate = seconds > 0 ? ` in ${seconds.toFixed(1)} s (${Math.round(summary.exchanges / seconds)}/s)` : '';
  out(
    `${summary.exchanges} exchanges${rate}: ${summary.identical} identical, ${summary.noise_only} noise only, ` +
      `${summary.different} different, ${summary.failed} failed. Score ${percent(summary.score)}.`,
  );
  for (const endpoint of summary.endpoints.filter((e) => e.different > 0)) {
    const fields = endpoint.fields
      .slice(0, 5)
      .map((f) => `${f.path} x${f.count}`)
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
}
