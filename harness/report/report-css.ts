/** The report's whole style sheet, inlined into the page: system fonts only, nothing fetched. */
export const REPORT_CSS = `
:root { --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --muted: #6e7781; --line: #d8dee4; --bg: #f6f8fa;
  --diff: #ffebe9; --diff-edge: #ff8182; --noise: #eef1f4; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1280px; padding: 24px 32px 48px; color: #1f2328; background: #fff;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
code, pre, .url { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace; font-size: 12.5px; }
h1 { font-size: 22px; margin: 0; }
h2 { font-size: 17px; margin: 32px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h2 small { font-weight: normal; color: var(--muted); }
h3 { font-size: 14px; margin: 8px 0; color: var(--muted); font-weight: 600; }
h4 { margin: 0 0 6px; font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.subject { color: var(--muted); margin: 4px 0 0; }
.headline { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 20px; align-items: stretch; }
.score { flex: 0 0 260px; border-radius: 10px; padding: 14px 18px; color: #fff; display: flex; flex-direction: column; }
.score.ok { background: var(--ok); } .score.warn { background: var(--warn); } .score.bad { background: var(--bad); }
.score.empty { background: var(--muted); }
.score .label { text-transform: uppercase; font-size: 12px; letter-spacing: .08em; opacity: .85; }
.score .value { font-size: 40px; font-weight: 700; line-height: 1.1; }
.score .hint { font-size: 12px; opacity: .85; }
.count { flex: 1 1 120px; border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px; display: flex; flex-direction: column; justify-content: center; }
.count .value { font-size: 28px; font-weight: 650; }
.count .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .06em; }
.count.ok .value { color: var(--ok); } .count.bad .value { color: var(--bad); } .count.muted .value { color: var(--muted); }
.plot { width: 100%; max-width: 760px; height: auto; background: var(--bg); border-radius: 8px; }
.plot .grid { stroke: var(--line); stroke-width: 1; }
.plot .axis { fill: var(--muted); font-size: 11px; font-family: system-ui, sans-serif; }
.plot .line { fill: none; stroke: #0969da; stroke-width: 2; }
.plot .dot.ok { fill: var(--ok); } .plot .dot.bad { fill: var(--bad); }
table { border-collapse: collapse; width: 100%; }
th { text-align: left; font-size: 12px; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--line); padding: 6px 10px; }
table.endpoints td:first-child { white-space: nowrap; }
td { border-bottom: 1px solid var(--line); padding: 7px 10px; vertical-align: top; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.bad td:first-child { border-left: 3px solid var(--bad); } tr.ok td:first-child { border-left: 3px solid var(--ok); }
.method { display: inline-block; min-width: 44px; font-size: 11px; font-weight: 700; color: #0550ae; }
.bar { width: 120px; height: 8px; background: var(--bg); border-radius: 4px; overflow: hidden; margin-top: 6px; }
.bar div { height: 100%; background: var(--bad); }
ul.fields { margin: 0; padding: 0; list-style: none; }
ul.fields li { margin: 1px 0; }
.example, .muted, .more { color: var(--muted); }
.example { font-size: 12px; margin-left: 6px; }
.tag { font-size: 11px; background: var(--noise); color: var(--muted); border-radius: 4px; padding: 0 5px; }
.none { color: var(--muted); font-style: italic; }
.columns { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; }
table.rules { margin-bottom: 16px; } table.rules tr.unused { color: var(--muted); }
details.exchange { border: 1px solid var(--line); border-radius: 8px; margin: 10px 0; }
details.exchange > summary { cursor: pointer; padding: 10px 14px; background: var(--bg); border-radius: 8px; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
details.exchange[open] > summary { border-bottom: 1px solid var(--line); border-radius: 8px 8px 0 0; }
.index, time.at { color: var(--muted); font-variant-numeric: tabular-nums; }
time.at { white-space: nowrap; }
.url { word-break: break-all; flex: 1 1 300px; }
.status { font-weight: 600; } .status.bad { color: var(--bad); }
table.diff-fields { margin: 10px 14px; width: calc(100% - 28px); }
table.diff-fields td.val { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
table.diff-fields tr:not(.allowed) td:first-child code { color: var(--bad); font-weight: 600; }
table.diff-fields tr.allowed { color: var(--muted); }
.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; padding: 0 14px 14px; }
.side-by-side > div { min-width: 0; }
pre.body { margin: 0; background: var(--bg); border-radius: 6px; padding: 10px 12px; overflow: auto; max-height: 520px; line-height: 1.45; }
pre.body.empty { color: var(--muted); font-style: italic; }
pre.body .key { color: #0550ae; } pre.body .str { color: #0a3069; } pre.body .lit { color: #8250df; }
mark.diff { background: var(--diff); outline: 1px solid var(--diff-edge); border-radius: 3px; color: inherit; }
mark.noise { background: var(--noise); color: var(--muted); border-radius: 3px; }
pre.body.diff { background: var(--diff); }
pre.body .esc { color: #fff; background: #8250df; border-radius: 3px; padding: 0 2px; margin: 0 1px; font-size: 11px; }
ul.class-strip { list-style: none; padding: 0; margin: 14px 0 0; display: flex; gap: 18px; flex-wrap: wrap; }
.cls { display: inline-block; font-size: 11px; font-weight: 700; border-radius: 4px; padding: 0 6px; color: #fff; text-transform: uppercase; letter-spacing: .03em; }
.cls-failed, .cls-status { background: var(--bad); } .cls-message { background: #bc4c00; } .cls-field { background: #9a6700; }
.cls-value { background: #8250df; } .cls-representation { background: var(--muted); }
details.group { border: 1px solid var(--line); border-radius: 8px; margin: 8px 0; }
details.group > summary { cursor: pointer; padding: 8px 12px; background: var(--bg); border-radius: 8px; }
table.rows td.val { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
button.more { margin: 8px 12px; }
.filter input { width: 360px; padding: 5px 8px; font: inherit; }
b.bad { color: var(--bad); }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
`;
