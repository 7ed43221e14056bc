import type { CorrespondenceSummary } from '../compare/correspondence.ts';
import { pathAndQueryOf, pathOf } from '../compare/exchange.ts';
import { DIFFERENCE_CLASSES, type DifferenceClass } from '../compare/field-difference.ts';
import type { DifferenceSummary, RunSummary } from '../compare/score.ts';
import { escapeHtml, showValue } from './html-escape.ts';

/** Rows in the page at most: a run with more differences lists them all in --json. */
const MAX_ROWS = 10_000;
/** Id pairs listed in the page at most. */
const MAX_MAPPINGS = 1000;
/** Rows a group shows before "more" (with the page's script; without it every row shows). */
export const PAGE_ROWS = 50;

export const CLASS_LABELS: Record<DifferenceClass, string> = {
  failed: 'no answer',
  status: 'status changed',
  message: 'legacy message changed',
  field: 'field missing or added',
  value: 'value changed',
  representation: 'representation only',
};

export function classBadge(cls: DifferenceClass): string {
  return `<span class="cls cls-${cls}" title="${escapeHtml(CLASS_LABELS[cls])}">${cls}</span>`;
}

/** The exchanges a run holds against the answers: those that differ beyond noise, and those without an answer. */
/**
 * When an exchange took place, as a UTC date and time (`2030-08-01 12:00:00 UTC`): a shadow sample's `#N` is only
 * its place in the report, so the engineer needs the time to find the request in the logs. Nothing when unknown.
 */
export function takenAt(at: string | undefined): string {
  if (at === undefined) return '';
  const time = new Date(at);
  const shown = Number.isNaN(time.getTime()) ? at : `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return `<time class="at" datetime="${escapeHtml(at)}">${escapeHtml(shown)}</time>`;
}

export function differing(summary: RunSummary): number {
  return summary.different + summary.failed;
}

/**
 * Differing exchanges by class, most severe first, as a strip of counts. A summary whose classes are known for
 * some of its differing exchanges only (the service's shadow scores: for the samples it kept) says so.
 */
export function classStrip(summary: RunSummary): string {
  const cells = DIFFERENCE_CLASSES.filter((cls) => summary.classes[cls] > 0).map(
    (cls) =>
      `<li>${classBadge(cls)} <b>${summary.classes[cls].toLocaleString('en')}</b> ${escapeHtml(CLASS_LABELS[cls])}</li>`,
  );
  const classed = DIFFERENCE_CLASSES.reduce((sum, cls) => sum + summary.classes[cls], 0);
  if (classed < differing(summary))
    cells.push(
      `<li class="muted">classes of ${classed.toLocaleString('en')} of ${differing(summary).toLocaleString('en')} differing exchanges: the samples kept</li>`,
    );
  return cells.length ? `<ul class="class-strip">${cells.join('')}</ul>` : '';
}

/**
 * Every differing exchange, grouped by endpoint and class (most severe class first, then the largest group), each
 * group's rows by index: the first differences first. A filter box (the page's one inline script) narrows the
 * rows by any text in them (index, endpoint, field, class) and pages long groups; without the script every row
 * shows, and the browser's find works on them.
 */
export function differencesSection(summary: RunSummary, keptIndices: ReadonlySet<number>): string {
  if (!summary.differences.length) return '';
  const groups = new Map<string, { method: string; path: string; cls: DifferenceClass; rows: DifferenceSummary[] }>();
  for (const difference of summary.differences.slice(0, MAX_ROWS)) {
    const path = pathOf(difference.url);
    const key = `${difference.class} ${difference.method} ${path}`;
    const group = groups.get(key) ?? { method: difference.method, path, cls: difference.class, rows: [] };
    group.rows.push(difference);
    groups.set(key, group);
  }
  const order = (cls: DifferenceClass) => DIFFERENCE_CLASSES.indexOf(cls);
  const sorted = [...groups.values()].sort(
    (a, b) => order(a.cls) - order(b.cls) || b.rows.length - a.rows.length || a.path.localeCompare(b.path),
  );
  const body = sorted
    .map((group, i) => {
      const rows = group.rows
        .sort((a, b) => a.index - b.index)
        .map((row) => {
          const fields = row.fields
            .slice(0, 4)
            .map(
              (f) =>
                `<code>${escapeHtml(f.path)}</code> ${escapeHtml(showValue(f.recorded, f.path))} → ${escapeHtml(showValue(f.replayed, f.path))}`,
            )
            .join('<br>');
          const more = row.fields.length > 4 ? `<br><span class="muted">… ${row.fields.length - 4} more</span>` : '';
          const index = keptIndices.has(row.index) ? `<a href="#x-${row.index}">#${row.index}</a>` : `#${row.index}`;
          return `<tr class="row"><td class="index">${index}${row.at === undefined ? '' : `<br>${takenAt(row.at)}`}</td><td><code class="url">${escapeHtml(pathAndQueryOf(row.url))}</code></td><td class="num">${row.status.recorded} → ${row.status.replayed ?? '—'}</td><td class="val">${fields}${more}</td></tr>`;
        })
        .join('\n');
      return `<details class="group"${i < 3 ? ' open' : ''} data-class="${group.cls}">
<summary>${classBadge(group.cls)} <span class="method">${escapeHtml(group.method)}</span> <code>${escapeHtml(group.path)}</code>
<span class="muted">${group.rows.length.toLocaleString('en')} exchange${group.rows.length === 1 ? '' : 's'}, first #${group.rows[0]?.index}</span></summary>
<table class="rows"><thead><tr><th>#</th><th>Request</th><th class="num">Status</th><th>Fields</th></tr></thead><tbody>
${rows}
</tbody></table>
</details>`;
    })
    .join('\n');
  // Every differing exchange is listed in a run's summary, the samples kept only in the service's shadow scores.
  const listed = summary.differences.length;
  const cut =
    listed > MAX_ROWS
      ? ` <small>(the first ${MAX_ROWS.toLocaleString('en')} of ${listed.toLocaleString('en')} by severity; all of them in --json)</small>`
      : listed < differing(summary)
        ? ` <small>(${listed.toLocaleString('en')} of ${differing(summary).toLocaleString('en')} differing exchanges: the samples kept)</small>`
        : '';
  return `<section id="differences">
  <h2>Differences by endpoint and class${cut}</h2>
  <p class="filter"><input type="search" id="filter" placeholder="Filter: endpoint, field, class, #index" aria-label="Filter differences"> <span id="shown" class="muted"></span></p>
  ${body}
</section>
<script>${FILTER_SCRIPT}</script>`;
}

/** Filters the difference rows by text and pages each group (PAGE_ROWS rows, then a button for more). */
const FILTER_SCRIPT = `
(() => {
  const PAGE = ${PAGE_ROWS};
  const input = document.getElementById('filter');
  const shown = document.getElementById('shown');
  const groups = [...document.querySelectorAll('details.group')];
  const limits = new Map(groups.map((g) => [g, PAGE]));
  const apply = () => {
    const q = input.value.trim().toLowerCase();
    let total = 0;
    for (const group of groups) {
      const rows = [...group.querySelectorAll('tr.row')];
      const head = group.querySelector('summary').textContent.toLowerCase();
      const matching = rows.filter((row) => !q || head.includes(q) || row.textContent.toLowerCase().includes(q));
      const limit = limits.get(group);
      rows.forEach((row) => { row.hidden = true; });
      matching.forEach((row, i) => { row.hidden = i >= limit; });
      group.hidden = matching.length === 0;
      if (q && matching.length) group.open = true;
      let more = group.querySelector('button.more');
      if (matching.length > limit) {
        if (!more) {
          more = document.createElement('button');
          more.className = 'more';
          more.onclick = () => { limits.set(group, limits.get(group) + PAGE); apply(); };
          group.appendChild(more);
        }
        more.textContent = 'Show ' + Math.min(PAGE, matching.length - limit) + ' more of ' + (matching.length - limit);
      } else if (more) more.remove();
      total += matching.length;
    }
    shown.textContent = total + ' matching';
  };
  input.addEventListener('input', () => { for (const g of groups) limits.set(g, PAGE); apply(); });
  apply();
})();
`;

/** The ids the run mapped (learnt or given), and where an id contradicted the mapping. */
export function correspondenceSection(correspondence: CorrespondenceSummary | undefined): string {
  if (!correspondence || (!correspondence.mappings.length && !correspondence.date_shift_days)) return '';
  const rows = correspondence.mappings
    .slice(0, MAX_MAPPINGS)
    .map(
      (m) =>
        `<tr><td><code>${escapeHtml(m.kind)}</code></td><td class="val">${escapeHtml(JSON.stringify(m.recorded))}</td><td class="val">${escapeHtml(JSON.stringify(m.replayed))}</td><td>${m.source}${m.learnt_at !== undefined ? ` at #${m.learnt_at}` : ''}</td><td class="num">${m.seen}</td></tr>`,
    )
    .join('\n');
  const conflicts = correspondence.conflicts
    .map(
      (c) =>
        `<tr class="bad"><td><code>${escapeHtml(c.kind)}</code></td><td>#${c.index} <code>${escapeHtml(c.path)}</code></td><td class="val">${escapeHtml(JSON.stringify(c.recorded))} → ${escapeHtml(JSON.stringify(c.replayed))}</td><td class="val">mapping says ${escapeHtml(JSON.stringify(c.expected))}</td></tr>`,
    )
    .join('\n');
  return `<section id="correspondence">
  <h2>Id correspondence <small>${correspondence.mappings.length} mapped${correspondence.date_shift_days ? `, dates shifted ${correspondence.date_shift_days} days` : ''}${correspondence.conflicts.length ? `, ${correspondence.conflicts.length} contradicting` : ''}</small></h2>
  ${conflicts ? `<h3>Contradicting the mapping (counted as value differences)</h3><table class="conflicts"><tbody>${conflicts}</tbody></table>` : ''}
  <details${correspondence.mappings.length <= 20 ? ' open' : ''}><summary>Recorded → replayed ids${correspondence.mappings.length > MAX_MAPPINGS ? ` (the first ${MAX_MAPPINGS} of ${correspondence.mappings.length}; all of them in --json)` : ''}</summary>
  <table class="mapping"><thead><tr><th>Kind</th><th>Recorded</th><th>Replayed</th><th>Source</th><th class="num">Seen</th></tr></thead><tbody>${rows}</tbody></table>
  </details>
</section>`;
}
