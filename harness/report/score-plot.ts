import { escapeHtml } from './html-escape.ts';

export interface HistoryPoint {
  finished_at: string;
  score: number;
  exchanges: number;
  different: number;
  failed: number;
  label?: string;
}

/**
 * The score over the runs kept in the history directory, as inline SVG (no script, no external resource): one
 * point per run, oldest left, the share of differing exchanges upwards, a tooltip per point.
 */
export function scorePlot(points: readonly HistoryPoint[]): string {
  const width = 760;
  const height = 200;
  const left = 56;
  const right = 16;
  const top = 16;
  const bottom = 40;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const top100 = Math.max(...points.map((p) => p.score), 0);
  const ceiling = niceCeiling(top100);
  const x = (i: number) => left + (points.length === 1 ? plotW / 2 : (i * plotW) / (points.length - 1));
  const y = (score: number) => top + plotH - (score / ceiling) * plotH;
  const grid = [0, 0.5, 1]
    .map((f) => {
      const value = ceiling * f;
      return `<line x1="${left}" x2="${width - right}" y1="${y(value)}" y2="${y(value)}" class="grid"/>
<text x="${left - 8}" y="${y(value) + 4}" text-anchor="end" class="axis">${percent(value)}</text>`;
    })
    .join('\n');
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.score).toFixed(1)}`).join(' ');
  const dots = points
    .map((p, i) => {
      const tip = `${p.finished_at}${p.label ? ` · ${p.label}` : ''}\nscore ${percent(p.score)} · ${p.different} different, ${p.failed} failed of ${p.exchanges}`;
      return `<circle cx="${x(i).toFixed(1)}" cy="${y(p.score).toFixed(1)}" r="4.5" class="${p.score === 0 ? 'dot ok' : 'dot bad'}"><title>${escapeHtml(tip)}</title></circle>`;
    })
    .join('\n');
  const first = points[0];
  const last = points.at(-1);
  const labels =
    first && last
      ? `<text x="${x(0)}" y="${height - 12}" text-anchor="${points.length === 1 ? 'middle' : 'start'}" class="axis">${escapeHtml(shortDate(first.finished_at))}</text>
${points.length > 1 ? `<text x="${x(points.length - 1)}" y="${height - 12}" text-anchor="end" class="axis">${escapeHtml(shortDate(last.finished_at))}</text>` : ''}`
      : '';
  return `<svg class="plot" viewBox="0 0 ${width} ${height}" role="img" aria-label="Score over ${points.length} runs">
${grid}
<polyline points="${line}" class="line"/>
${dots}
${labels}
</svg>`;
}

export function percent(score: number): string {
  if (score === 0) return '0 %';
  const value = score * 100;
  return `${value < 0.1 ? value.toPrecision(1) : value < 10 ? value.toFixed(2) : value.toFixed(1)} %`;
}

function niceCeiling(value: number): number {
  if (value <= 0) return 0.01;
  const steps = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1];
  return steps.find((step) => step >= value) ?? 1;
}

function shortDate(iso: string): string {
  return iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
}
