import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunSummary } from '../compare/score.ts';
import type { HistoryPoint } from './score-plot.ts';

/**
 * `--history DIR`: each run leaves one small JSON file there (its time, counts and score); the report plots the
 * score over every run in the directory. Files that are not run records are skipped.
 */
export async function recordRun(dir: string, summary: RunSummary, finishedAt: string, label: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const point: HistoryPoint = {
    finished_at: finishedAt,
    score: summary.score,
    exchanges: summary.exchanges,
    different: summary.different,
    failed: summary.failed,
    label,
  };
  await writeFile(join(dir, `run-${finishedAt.replace(/[:.]/g, '-')}.json`), `${JSON.stringify(point)}\n`);
}

export async function readHistory(dir: string): Promise<HistoryPoint[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => /^run-.*\.json$/.test(name));
  const points: HistoryPoint[] = [];
  for (const name of names) {
    try {
      const point = JSON.parse(await readFile(join(dir, name), 'utf8')) as HistoryPoint;
      if (typeof point.finished_at === 'string' && typeof point.score === 'number') points.push(point);
    } catch {
      // A file someone edited or truncated by hand is not a run record; the plot shows the others.
    }
  }
  return points.sort((a, b) => a.finished_at.localeCompare(b.finished_at));
}
