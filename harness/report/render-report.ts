import type { CorrespondenceSummary } from '../compare/correspondence.ts';
import { pathAndQueryOf } from '../compare/exchange.ts';
import type { EndpointNoise } from '../compare/noise.ts';
import type { ForgivenSummary, KeptExchange, RunSummary } from '../compare/score.ts';
import {
  classBadge,
  classStrip,
  correspondenceSection,
  differencesSection,
  differing,
  takenAt,
} from './differences-view.ts';
import { escapeHtml, showValue } from './html-escape.ts';
import { bodyView, type Mark } from './json-view.ts';
import { REPORT_CSS } from './report-css.ts';
import { type HistoryPoint, percent, scorePlot } from './score-plot.ts';

export interface ReportInput {
  title: string;
  /** What was compared with what: `corpus.har → http://127.0.0.1:8080`. */
  subject: string;
  finishedAt: string;
  summary: RunSummary;
  kept: KeptExchange[];
  forgiven: ForgivenSummary[];
  noise: EndpointNoise[];
  history: HistoryPoint[];
  /** The ids the run mapped, for a replay or compare. */
  correspondence?: CorrespondenceSummary;
  /** Whether secrets and guest data were redacted (the default); said on the page. */
  redacted?: boolean;
}

/**
 * One self-contained HTML page (inline CSS, SVG and one small inline script, nothing fetched from anywhere): the
 * score and counts first, the differing exchanges by class, the score over past runs, a table per endpoint, the
 * differences grouped by endpoint and class (filterable), the id correspondence, noise, then the first differing
 * exchanges of each class with both bodies side by side and the differing fields marked.
 */
export function renderReport(input: ReportInput): string {
  const { summary } = input;
  // Nothing compared is no evidence: a score of 0 there would read green, "every answer matched" (a shadow key whose
  // legacy service never answered, an empty corpus), so the page says that nothing was compared instead.
  const compared = summary.exchanges > 0;
  const tone = !compared
    ? 'empty'
    : summary.score === 0 && summary.failed === 0
      ? 'ok'
      : summary.score < 0.01
        ? 'warn'
        : 'bad';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
  <h1>${escapeHtml(input.title)}</h1>
  <p class="subject">${escapeHtml(input.subject)} · ${escapeHtml(input.finishedAt)}${input.redacted === false ? ' · <b class="bad">not redacted: secrets and guest data as recorded, do not send</b>' : ' · secrets and guest data redacted'}</p>
</header>
<section class="headline">
  <div class="score ${tone}"><span class="label">score</span><span class="value">${compared ? percent(summary.score) : 'none'}</span>
    <span class="hint">${compared ? 'of exchanges differ beyond noise' : 'nothing was compared: no evidence either way'}</span></div>
  ${counter('exchanges', summary.exchanges, '')}
  ${counter('identical', summary.identical, 'ok')}
  ${counter('noise only', summary.noise_only, 'muted')}
  ${counter('different', summary.different, summary.different ? 'bad' : '')}
  ${counter('failed', summary.failed, summary.failed ? 'bad' : '')}
</section>
${classStrip(summary)}
${input.history.length ? `<section><h2>Score over runs</h2>${scorePlot(input.history)}</section>` : ''}
<section>
  <h2>Endpoints</h2>
  ${endpointTable(summary)}
</section>
${differencesSection(summary, new Set(input.kept.map((k) => k.index)))}
${correspondenceSection(input.correspondence)}
${noiseSection(input)}
<section>
  <h2>Differing exchanges${keptNote(summary, input.kept.length)}</h2>
  ${input.kept.length ? input.kept.map((kept, i) => exchangeView(kept, i < 10)).join('\n') : compared ? '<p class="none">None: every answer matched the recording.</p>' : '<p class="none">None: nothing was compared.</p>'}
</section>
<footer>qc compatibility harness · differing fields <mark class="diff">marked</mark>, noise and ignored fields <mark class="noise">dimmed</mark></footer>
</body>
</html>
`;
}

/** How many differing exchanges are shown whole, of how many, and which: both counts are differing exchanges. */
function keptNote(summary: RunSummary, kept: number): string {
  const all = differing(summary);
  if (kept >= all) return '';
  const which =
    summary.differences.length < all
      ? 'the samples the service kept, the first differing exchanges of each day'
      : 'the first of each class, most severe first';
  return ` <small>(${kept.toLocaleString('en')} of ${all.toLocaleString('en')} kept whole: ${which})</small>`;
}

function counter(label: string, value: number, tone: string): string {
  return `<div class="count ${tone}"><span class="value">${value.toLocaleString('en')}</span><span class="label">${label}</span></div>`;
}

function endpointTable(summary: RunSummary): string {
  if (!summary.endpoints.length) return '<p class="none">No exchanges.</p>';
  const rows = [...summary.endpoints]
    .map((endpoint) => {
      const share = endpoint.exchanges ? endpoint.different / endpoint.exchanges : 0;
      const fields = endpoint.fields
        .slice(0, 6)
        .map(
          (field) =>
            `<li>${field.class ? `${classBadge(field.class)} ` : ''}<code>${escapeHtml(field.path)}</code> ×${field.count} <span class="example">${escapeHtml(showValue(field.example.recorded, field.path))} → ${escapeHtml(showValue(field.example.replayed, field.path))}</span></li>`,
        )
        .join('');
      const more = endpoint.fields.length > 6 ? `<li class="more">… ${endpoint.fields.length - 6} more</li>` : '';
      return `<tr class="${endpoint.different ? 'bad' : 'ok'}">
  <td><span class="method">${escapeHtml(endpoint.method)}</span> <code>${escapeHtml(endpoint.path)}</code></td>
  <td class="num">${endpoint.exchanges}</td>
  <td class="num">${endpoint.different}</td>
  <td><div class="bar"><div style="width:${(share * 100).toFixed(1)}%"></div></div></td>
  <td>${fields ? `<ul class="fields">${fields}${more}</ul>` : '<span class="muted">—</span>'}</td>
</tr>`;
    })
    .join('\n');
  return `<table class="endpoints">
<thead><tr><th>Endpoint</th><th class="num">Exchanges</th><th class="num">Different</th><th>Share</th><th>Fields that differ</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

/**
 * What the run did not hold against the answers: each ignore rule with the exchanges it forgave a difference in
 * and the first of them (a rule that never applied shows so: a candidate for deletion), the fields learnt as
 * noise from the secondary recording, and every forgiven field by endpoint.
 */
function noiseSection(input: ReportInput): string {
  const rules = input.summary.ignore_rules;
  if (!input.noise.length && !input.forgiven.length && !rules.length) return '';
  const kept = new Set(input.kept.map((k) => k.index));
  const ruleRows = rules
    .map(({ rule, exchanges, sample }) => {
      const where =
        sample?.index !== undefined
          ? kept.has(sample.index)
            ? `<a href="#x-${sample.index}">#${sample.index}</a>`
            : `#${sample.index}`
          : escapeHtml(sample?.date ?? '');
      return `<tr class="${exchanges ? '' : 'unused'}"><td><code>${escapeHtml(rule)}</code></td><td class="num">${exchanges.toLocaleString('en')}</td>
<td>${sample ? `${where} <code>${escapeHtml(sample.path)}</code>` : '<span class="muted">never applied</span>'}</td></tr>`;
    })
    .join('\n');
  const learnt = input.noise
    .map(
      (
        endpoint,
      ) => `<tr><td><span class="method">${escapeHtml(endpoint.method)}</span> <code>${escapeHtml(endpoint.path)}</code></td>
<td>${endpoint.fields.map((f) => `<code>${escapeHtml(f.path)}</code> <span class="muted">(${f.count} of ${endpoint.exchanges} pairs)</span>`).join('<br>')}</td></tr>`,
    )
    .join('\n');
  const forgiven = input.forgiven
    .map(
      (
        endpoint,
      ) => `<tr><td><span class="method">${escapeHtml(endpoint.method)}</span> <code>${escapeHtml(endpoint.path)}</code></td>
<td>${endpoint.fields.map((f) => `<code>${escapeHtml(f.path)}</code> ×${f.count} <span class="tag">${f.allowed}</span>`).join('<br>')}</td></tr>`,
    )
    .join('\n');
  return `<section id="forgiven">
  <h2>Noise and forgiven differences</h2>
  ${
    rules.length
      ? `<h3>Ignore rules</h3><table class="rules"><thead><tr><th>Rule</th><th class="num">Exchanges forgiven</th><th>First forgiven</th></tr></thead><tbody>${ruleRows}</tbody></table>`
      : ''
  }
  <div class="columns">
    <div><h3>Learnt from the secondary recording</h3>${learnt ? `<table class="noise"><tbody>${learnt}</tbody></table>` : '<p class="none">No secondary recording, or it matched the primary.</p>'}</div>
    <div><h3>Forgiven fields in this run</h3>${forgiven ? `<table class="noise"><tbody>${forgiven}</tbody></table>` : '<p class="none">Nothing.</p>'}</div>
  </div>
</section>`;
}

function exchangeView(kept: KeptExchange, open: boolean): string {
  const fields = new Map<string, Mark>();
  for (const field of kept.fields) fields.set(field.path, field.allowed ? 'noise' : 'diff');
  const parting = kept.fields.find((field) => field.path === 'body' && !field.allowed);
  const held = kept.fields.filter((field) => !field.allowed);
  const statusLine = kept.replayed
    ? `${kept.recorded.status} → ${kept.replayed.status}`
    : `${kept.recorded.status} → no answer`;
  const rows = (
    kept.error ? [{ path: 'error', recorded: undefined, replayed: kept.error, allowed: undefined }] : kept.fields
  )
    .map(
      (
        field,
      ) => `<tr class="${field.allowed ? 'allowed' : ''}"><td>${'class' in field && field.class && !field.allowed ? `${classBadge(field.class)} ` : ''}<code>${escapeHtml(field.path)}</code>${'detail' in field && field.detail ? ` <span class="muted">${escapeHtml(field.detail)}</span>` : ''}${'expected' in field && field.expected !== undefined ? ` <span class="muted">mapping says ${escapeHtml(JSON.stringify(field.expected))}</span>` : ''}${'offset' in field && field.offset !== undefined ? ` <span class="muted">at byte ${field.offset}</span>` : ''}${field.allowed ? ` <span class="tag">${field.allowed}</span>` : ''}</td>
<td class="val">${escapeHtml(showValue(field.recorded, field.path))}</td><td class="val">${escapeHtml(showValue(field.replayed, field.path))}</td></tr>`,
    )
    .join('\n');
  return `<details class="exchange" id="x-${kept.index}"${open ? ' open' : ''}>
<summary>${kept.class ? classBadge(kept.class) : ''} <span class="index">#${kept.index}</span>${kept.at === undefined ? '' : ` ${takenAt(kept.at)}`} <span class="method">${escapeHtml(kept.recorded.method)}</span>
<code class="url">${escapeHtml(pathAndQueryOf(kept.recorded.url))}${kept.sent ? `<br><span class="muted">sent as</span> ${escapeHtml(kept.sent)}` : ''}</code>
<span class="status ${kept.replayed?.status === kept.recorded.status ? '' : 'bad'}">${statusLine}</span>
<span class="muted">${kept.error ? 'failed' : `${held.length} field${held.length === 1 ? '' : 's'}`}</span></summary>
<table class="diff-fields"><thead><tr><th>Field</th><th>Recorded</th><th>Replayed</th></tr></thead><tbody>${rows}</tbody></table>
<div class="side-by-side">
  <div><h4>Recorded</h4>${bodyView(kept.recorded.responseBody, { fields, byteOffset: parting?.offset })}</div>
  <div><h4>Replayed</h4>${bodyView(kept.replayed?.responseBody, { fields, byteOffset: parting?.replayed_offset })}</div>
</div>
</details>`;
}
