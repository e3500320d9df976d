import { createHash } from 'node:crypto';
import type { RunAggregate } from '../run-log/aggregate.js';
import type { CaseRecord } from '../run-log/schema.js';
import type { CompareResult } from './compare.js';
import { fmtP, pct, signedPts } from './format.js';
import { conversationsSection } from './html-conversations.js';
import {
  type CaseDataCounts,
  type ErrorTable,
  HtmlCaseData,
  isFailingRecord,
  MemoryOut,
  scriptJson,
} from './html-data.js';
import { escapeHtml as e } from './html-escape.js';
import { gateHtml } from './html-gate.js';
import { heatLegend, heatStyle } from './html-heat.js';
import { presentationSection } from './html-presentation.js';
import { HTML_SCRIPT } from './html-script.js';
import { strategiesSection } from './html-strategies.js';
import { compareStrategies } from './strategy-comparison.js';
import { wilson } from './wilson.js';

export interface HtmlOptions {
  /** Most cases whose details (transcripts) are embedded, failing cases first; every case is always listed. */
  maxCases?: number;
  comparison?: CompareResult | null;
  gateLines?: string[];
}

const STYLE = `
[hidden]{display:none!important}
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#222;max-width:110rem}
nav a{margin-right:1rem}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}.muted{color:#666}.sim{color:#666;font-size:.85em}
.heat a{color:inherit;text-decoration:none;display:block}.heat a:hover,.heat a:focus{outline:2px solid #036}
.heat small,.conv-cases small{display:block;color:#333}.meter{display:block;height:4px;background:#fff;border:1px solid #555;margin-top:2px}.meter i{display:block;height:100%;background:#222}
.legend span{display:inline-block;padding:0 .4rem;margin-right:2px;border:1px solid #999}
pre{background:#f6f6f6;padding:.5rem;white-space:pre-wrap;word-break:break-word;max-height:30rem;overflow:auto;margin:.2rem 0}
li.case{border:1px solid #ddd;margin:.3rem 0;padding:.2rem .5rem;list-style-position:inside}
li.case button.open{font-family:monospace;background:none;border:0;cursor:pointer;padding:0;text-align:left}
li.case button.open::before{content:'▸ '}li.case button.open[aria-expanded=true]::before{content:'▾ '}
.chip{display:inline-block;border-radius:.6rem;padding:0 .5rem;font-size:.8em;margin-left:.2rem}
.ok{background:#d8f5d8}.bad{background:#fadada}.err{background:#f5e6b8}.tags{color:#555;font-size:.85em}
ul.grades li.ok,ul.grades li.bad{background:none}ul.grades li.bad b{color:#a00}ul.grades li.ok b{color:#070}
.regression{color:#a00;font-weight:bold}.filters label{margin-right:1rem}
.providers{display:grid;grid-template-columns:repeat(auto-fill,minmax(40rem,1fr));gap:1rem}
.provider{border:1px solid #ddd;padding:.2rem .8rem}.provider h3{margin:.4rem 0}.sc table{font-size:.85em;margin:.3rem 0 .6rem}
.provider svg{color:#124;max-width:100%;height:auto}.best{font-weight:bold}.sig{font-weight:bold}
#case-view{border:2px solid #036;padding:.5rem 1rem;margin:1rem 0}
.cv-grid{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(20rem,1fr);gap:1rem;overflow-x:auto}
.cv-col pre{max-height:22rem}pre.diff .ins{background:#dff5df;display:block}pre.diff .del{background:#fbe0e0;display:block}pre.diff .same{color:#777;display:block}
details.why-cell{border:1px solid #ddd;margin:.3rem 0;padding:.2rem .5rem}details.why-cell summary{cursor:pointer}
table.confusions td.desc{max-width:26rem;font-size:.85em;color:#333;text-align:left}.bad-n{background:#fadada}
table.confusions td.l,table.confusions th,table.per-tool th{text-align:left}#why .provider{margin-bottom:1rem}
.sweep{display:inline-block;vertical-align:top;margin:0 1rem .5rem 0}.sweep svg{color:#124}
`;

function matrixSection(agg: RunAggregate, grader: string, renderers: string[], providers: string[]): string {
  const k = agg.repeats;
  const rows = renderers.map((r) => {
    const tds = providers.map((p) => {
      const t = agg.cells.get(`${r}|${p}`)?.graders.get(grader);
      if (!t || t.n === 0) return '<td>–</td>';
      const rate = t.pass / t.n;
      const [lo, hi] = wilson(t.pass, t.n);
      const hk = k > 1 ? agg.passHatK(r, p, grader, k) : null;
      const label = `${grader} in ${r} × ${p}: ${t.pass} of ${t.n} passed; list these ${t.n} cases`;
      return `<td class="heat" style="${heatStyle(rate)}"><a class="cell" href="#cases" data-grader="${e(grader)}" data-renderer="${e(r)}" data-provider="${e(p)}" data-n="${t.n}" title="${e(label)}">${pct(rate)}<small>${t.pass}/${t.n} · ${pct(lo)}–${pct(hi)}${t.n - t.pass ? ` · ${t.n - t.pass} fail` : ''}${hk !== null ? ` · pass^${k} ${pct(hk)}` : ''}</small><span class="meter" aria-hidden="true"><i style="width:${(rate * 100).toFixed(1)}%"></i></span></a></td>`;
    });
    return `<tr data-renderer-row="${e(r)}"><th>${e(r)}</th>${tds.join('')}</tr>`;
  });
  // Pooled over providers, labelled so: it hides provider differences, and the per-provider comparison is above.
  const pooled = renderers.map((r) => {
    let pass = 0;
    let n = 0;
    for (const p of providers) {
      const t = agg.cells.get(`${r}|${p}`)?.graders.get(grader);
      if (t) {
        pass += t.pass;
        n += t.n;
      }
    }
    if (!n) return `<td>–</td>`;
    const [lo, hi] = wilson(pass, n);
    return `<td>${pct(pass / n)} <small>(${pass}/${n}, ${pct(lo)}–${pct(hi)})</small></td>`;
  });
  return [
    `<section class="grader" data-grader-matrix="${e(grader)}"><h3>${e(grader)}</h3>`,
    `<table class="matrix"><tr><th>renderer \\ provider</th>${providers.map((p) => `<th>${e(p)}</th>`).join('')}<th class="pooled">pooled over all providers</th></tr>${rows
      .map((row, i) => row.replace(/<\/tr>$/, `${pooled[i] ?? ''}</tr>`))
      .join('')}</table>`,
    '</section>',
  ].join('\n');
}

function regressionsHtml(c: CompareResult | null | undefined): string {
  if (c === undefined) return '';
  if (c === null) return '<p class="muted">No baseline: regressions not checked.</p>';
  const reg = c.cells.filter((x) => x.regression);
  const items = reg.map(
    (r) =>
      `<li class="regression">${e(r.grader)} in ${e(r.renderer)} × ${e(r.provider)}: ${pct(r.base[0] / r.base[1])} → ${pct(r.run[0] / r.run[1])} (${signedPts(r.delta)}, ${r.worse} pass→fail vs ${r.better} fail→pass, p=${fmtP(r.pAdjusted)})</li>`,
  );
  return `<h2>Regressions against baseline ${e(c.baseRunId)} (${reg.length})</h2>${reg.length ? `<ul>${items.join('')}</ul>` : '<p>None.</p>'}`;
}

function tokensSection(agg: RunAggregate, renderers: string[], providers: string[]): string {
  const rows: string[] = [];
  for (const r of renderers) {
    for (const p of providers) {
      const c = agg.cells.get(`${r}|${p}`);
      if (!c?.cases) continue;
      const u = c.usage as { input: number; output: number; cached: number; cacheWrite?: number };
      const per = (x: number) => (c.cases ? Math.round(x / c.cases) : 0);
      rows.push(
        `<tr><th>${e(r)}</th><td class="l">${e(p)}</td><td>${per(c.promptTokens)}</td><td>${per(u.input)}</td><td>${per(u.cached)}</td><td>${per(u.cacheWrite ?? 0)}</td><td>${u.input ? pct(u.cached / u.input) : '–'}</td><td>${per(u.output)}</td></tr>`,
      );
    }
  }
  return [
    '<section id="tokens"><h2>Prompt tokens: the local estimate and what the provider reported</h2>',
    '<p class="muted">Estimate: o200k tokens of the first request (the x axis above). Provider-reported: summed over every turn of a case, as the API counted them; cache read/write are prompt-cache hits and writes (Anthropic cache_read/cache_creation_input_tokens, OpenAI cached_tokens); simulated providers report an estimate.</p>',
    '<table class="tokens"><tr><th>renderer</th><th>provider</th><th>estimate (1st request)</th><th>input / case</th><th>cache read / case</th><th>cache write / case</th><th>read share</th><th>output / case</th></tr>',
    rows.join(''),
    '</table></section>',
  ].join('\n');
}

function errorsSection(errors: ErrorTable, providers: string[]): string {
  if (!errors.total) {
    return '<section id="errors"><h2>Infrastructure errors (0)</h2><p>None. (Errors are never counted as failures.)</p></section>';
  }
  const rows = errors.codes.map(
    (c) =>
      `<tr><th>${e(c.code)}</th><td>${c.count}</td>${providers.map((p) => `<td>${c.byProvider[p] ?? 0}</td>`).join('')}<td class="l"><ul>${c.examples
        .map((x) => `<li><code>${e(x.key)}</code>: ${e(x.message)}</li>`)
        .join('')}</ul></td></tr>`,
  );
  return [
    `<section id="errors"><h2>Infrastructure errors (${errors.total})</h2>`,
    '<p class="muted">Network, server and config faults: the case was not graded, and it is not a failure. <a class="cell" href="#cases" data-outcome="error" data-grader="" data-renderer="" data-provider="">List them</a>.</p>',
    `<table class="errors"><tr><th>code</th><th>cases</th>${providers.map((p) => `<th>${e(p)}</th>`).join('')}<th>examples</th></tr>${rows.join('')}</table></section>`,
  ].join('\n');
}

function casesSection(counts: CaseDataCounts): string {
  const capped = counts.detailed < counts.total;
  return [
    '<section id="cases"><h2>Cases</h2>',
    `<p id="cases-note">${counts.total} case(s) in the run (${counts.failingTotal} failing or errored), every one listed and counted below: failing cases first, then errored ones, then those that passed, each by suite and case, then renderer, provider and repeat. ${
      capped
        ? `<b>Details (transcripts) are embedded for ${counts.detailed} of them</b> (at most ${counts.max}, failing cases first); the others are listed with their grades, and their transcripts are in run.jsonl.`
        : 'Each case opens with its transcript.'
    }</p>`,
    '<div class="filters">',
    '<label>search id or tag <input id="f-q" type="search" placeholder="excel/read, tag:zh"></label>',
    '<label>grader <select id="f-grader"><option value="">all</option></select></label>',
    '<label>renderer <select id="f-renderer"><option value="">all</option></select></label>',
    '<label>provider <select id="f-provider"><option value="">all</option></select></label>',
    '<label>outcome <select id="f-outcome"><option value="any">any</option><option value="pass">pass</option><option value="fail">fail</option><option value="error">error</option></select></label>',
    '</div>',
    '<p><b id="count">…</b> case(s) match. <button id="prev" type="button">previous</button> <span id="page"></span> <button id="next" type="button">next</button> <span id="cases-status" class="muted">Loading the case list…</span></p>',
    '<noscript><p>The case list needs JavaScript; results.csv and run.jsonl hold every case.</p></noscript>',
    '<ol id="case-list"></ol>',
    '</section>',
    '<section id="case-view" hidden></section>',
  ].join('\n');
}

/** What the page needs beyond the aggregate: the case data's counts and error table. */
export interface HtmlParts {
  counts: CaseDataCounts;
  errors: ErrorTable;
  meta: Record<string, unknown>;
}

/** The page up to the case data: header, gate, regressions, strategies, matrices, tokens, errors, case list. Pure. */
export function htmlHead(agg: RunAggregate, parts: HtmlParts, opts: HtmlOptions = {}): string {
  const h = agg.header;
  const cells = [...agg.cells.values()];
  const renderers = [...new Set(cells.map((c) => c.renderer))];
  const providers = [...new Set(cells.map((c) => c.provider))];
  const simulated = cells.filter((c) => c.simulated).map((c) => c.provider);
  const scriptHash = createHash('sha256').update(HTML_SCRIPT).digest('base64');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'">`,
    `<title>toolgauge ${e(h.runId)}</title><style>${STYLE}</style></head><body>`,
    `<h1>toolgauge run ${e(h.runId)}</h1>`,
    `<p>Suites: ${e(h.suites.map((s) => `${s.name} (${s.cases})`).join(', '))} · cases run: ${agg.total} · infrastructure errors: ${agg.totalErrors} · repeats: ${agg.repeats}${h.gitCommit ? ` · commit ${e(h.gitCommit.slice(0, 12))}` : ''}</p>`,
    simulated.length
      ? `<p class="sim">Simulated providers (not real models): ${e([...new Set(simulated)].join(', '))}</p>`
      : '',
    opts.gateLines?.length ? `<pre class="gate">${e(opts.gateLines.join('\n'))}</pre>` : '',
    regressionsHtml(opts.comparison),
    gateHtml(agg, opts.comparison),
    `<nav><a href="#strategies">Which strategy?</a><a href="#why">Why it fails</a><a href="#matrix">Matrix</a>${agg.conversations.size ? '<a href="#conversations">Conversations</a>' : ''}<a href="#tokens">Tokens</a><a href="#errors">Errors</a><a href="#cases">Cases</a></nav>`,
    strategiesSection(compareStrategies(agg), agg.graderNames, renderers),
    presentationSection(agg),
    '<section id="matrix"><h2>Matrix: pass rate per grader (renderer × provider)</h2>',
    `<p class="muted">Each cell: pass rate, passes/graded, Wilson 95% interval, failures; the bar under it is the rate. Click a cell to list exactly its cases. Colour scale (spaced by failure rate, so 91% and 100% differ): ${heatLegend()}</p>`,
    ...agg.graderNames.map((g) => matrixSection(agg, g, renderers, providers)),
    '</section>',
    ...(agg.conversations.size ? [conversationsSection(agg)] : []),
    tokensSection(agg, renderers, providers),
    errorsSection(parts.errors, providers),
    casesSection(parts.counts),
  ].join('\n');
}

/** The page after the case data: the script. */
export function htmlFoot(): string {
  return `<script>${HTML_SCRIPT}</script></body></html>\n`;
}

/** Opens the case data element; the index, failing and passing chunk lists follow, then DATA_CLOSE. */
export function dataOpen(meta: Record<string, unknown>): string {
  return `<script type="application/json" id="tg-data">{"meta":${scriptJson(meta)},"index":[`;
}
export const DATA_FAILING = '],"failing":[';
export const DATA_PASSING = '],"passing":[';
export const DATA_CLOSE = ']}</script>\n';

/** A case is failing when it errored or any grader failed: those get their details embedded first. */
export const isFailing = isFailingRecord;

export const DEFAULT_MAX_HTML_CASES = 5000;

/**
 * report.html: one self-contained page (inline style, inline script pinned by a CSP, case data in one JSON element,
 * no network). Every case is listed; the details of at most maxCases are embedded, failing cases first. This is the
 * in-memory form of what HtmlReportFile writes with part files (the same bytes). `records` must return a fresh
 * iterable per call. Pure.
 */
export async function* renderHtml(
  agg: RunAggregate,
  records: () => AsyncIterable<CaseRecord>,
  opts: HtmlOptions = {},
): AsyncGenerator<string> {
  const outs = { index: new MemoryOut(), failing: new MemoryOut(), passing: new MemoryOut() };
  const data = new HtmlCaseData(agg.header, outs, {
    maxDetails: opts.maxCases ?? DEFAULT_MAX_HTML_CASES,
  });
  for await (const r of records()) data.add(r);
  const counts = data.finish();
  const meta = data.meta(counts);
  yield htmlHead(agg, { counts, errors: data.errors(), meta }, opts);
  yield dataOpen(meta);
  yield outs.index.text();
  yield DATA_FAILING;
  yield outs.failing.text();
  yield DATA_PASSING;
  yield outs.passing.text(counts.passingBytes);
  yield DATA_CLOSE;
  yield htmlFoot();
}
