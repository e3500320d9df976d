import { createHash } from 'node:crypto';
import type { CaseRecord } from '../run-log/schema.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import type { CompareResult } from './compare.js';
import { pct, signedPts } from './format.js';
import { caseHtml } from './html-case.js';
import { escapeHtml as e } from './html-escape.js';
import { wilson } from './wilson.js';

export interface HtmlOptions {
  /** Most drill-downs embedded (failing cases first). */
  maxCases?: number;
  comparison?: CompareResult | null;
  gateLines?: string[];
}

/** The filter script. Static text: no run data is ever interpolated into it (the CSP pins its hash). */
const SCRIPT = `
const $ = (s) => document.querySelector(s);
function apply() {
  const g = $('#f-grader').value, r = $('#f-renderer').value, p = $('#f-provider').value, failing = $('#f-failing').checked;
  let shown = 0;
  for (const d of document.querySelectorAll('details.case')) {
    const ok = (!r || d.dataset.renderer === r) && (!p || d.dataset.provider === p) &&
      (!g || d.dataset.graded.includes(' ' + g + ' ')) &&
      (!failing || (g ? d.dataset.failed.includes(' ' + g + ' ') : d.dataset.failing === '1'));
    d.hidden = !ok;
    if (ok) shown++;
  }
  for (const s of document.querySelectorAll('section.grader')) s.hidden = Boolean(g) && s.dataset.grader !== g;
  for (const t of document.querySelectorAll('[data-renderer-row]')) t.hidden = Boolean(r) && t.dataset.rendererRow !== r;
  $('#shown').textContent = String(shown);
}
for (const id of ['#f-grader', '#f-renderer', '#f-provider', '#f-failing']) $(id).addEventListener('change', apply);
apply();
`;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}.muted{color:#777}.sim{color:#777;font-size:.85em}
.heat small{display:block;color:#444}pre{background:#f6f6f6;padding:.5rem;white-space:pre-wrap;word-break:break-word;max-height:30rem;overflow:auto}
details.case{border:1px solid #ddd;margin:.3rem 0;padding:.2rem .5rem}details.case>summary{cursor:pointer}
.chip{display:inline-block;border-radius:.6rem;padding:0 .5rem;font-size:.8em;margin-left:.2rem}
.ok{background:#d8f5d8}.bad{background:#fadada}.err{background:#f5e6b8}
ul.grades li.ok,ul.grades li.bad{background:none}ul.grades li.bad b{color:#a00}ul.grades li.ok b{color:#070}
.bar{position:relative;height:.8rem;width:14rem;background:#eee;display:inline-block;vertical-align:middle}
.bar i{position:absolute;top:0;bottom:0;background:#9cc}.bar b{position:absolute;top:-.15rem;bottom:-.15rem;width:2px;background:#036}
.regression{color:#a00;font-weight:bold}.filters label{margin-right:1rem}
`;

function heat(rate: number): string {
  return `background:hsl(${Math.round(rate * 120)},70%,82%)`;
}

function options(values: string[]): string {
  return ['<option value="">all</option>', ...values.map((v) => `<option value="${e(v)}">${e(v)}</option>`)].join('');
}

function matrixSection(agg: RunAggregate, grader: string, renderers: string[], providers: string[]): string {
  const k = agg.repeats;
  const rows = renderers.map((r) => {
    const tds = providers.map((p) => {
      const t = agg.cells.get(`${r}|${p}`)?.graders.get(grader);
      if (!t || t.n === 0) return '<td>–</td>';
      const [lo, hi] = wilson(t.pass, t.n);
      const hk = k > 1 ? agg.passHatK(r, p, grader, k) : null;
      return `<td class="heat" style="${heat(t.pass / t.n)}">${pct(t.pass / t.n)}<small>${t.pass}/${t.n} · ${pct(lo)}–${pct(hi)}${hk !== null ? ` · pass^${k} ${pct(hk)}` : ''}</small></td>`;
    });
    return `<tr data-renderer-row="${e(r)}"><th>${e(r)}</th>${tds.join('')}</tr>`;
  });
  // Per-grader comparison of strategies: each renderer pooled over providers, with its interval as a bar.
  const bars = renderers.map((r) => {
    let pass = 0;
    let n = 0;
    for (const p of providers) {
      const t = agg.cells.get(`${r}|${p}`)?.graders.get(grader);
      if (t) {
        pass += t.pass;
        n += t.n;
      }
    }
    if (!n) return `<tr data-renderer-row="${e(r)}"><th>${e(r)}</th><td>–</td><td></td></tr>`;
    const [lo, hi] = wilson(pass, n);
    const bar = `<span class="bar"><i style="left:${(lo * 100).toFixed(1)}%;width:${((hi - lo) * 100).toFixed(1)}%"></i><b style="left:${((pass / n) * 100).toFixed(1)}%"></b></span>`;
    return `<tr data-renderer-row="${e(r)}"><th>${e(r)}</th><td>${pct(pass / n)} (${pass}/${n}, ${pct(lo)}–${pct(hi)})</td><td>${bar}</td></tr>`;
  });
  return [
    `<section class="grader" data-grader="${e(grader)}"><h3>${e(grader)}</h3>`,
    `<table class="matrix"><tr><th>renderer \\ provider</th>${providers.map((p) => `<th>${e(p)}</th>`).join('')}</tr>${rows.join('')}</table>`,
    '<p class="muted">Strategies compared (pooled over providers, Wilson 95% interval):</p>',
    `<table class="strategies"><tr><th>renderer</th><th>pass rate</th><th>interval</th></tr>${bars.join('')}</table>`,
    '</section>',
  ].join('\n');
}

function regressionsHtml(c: CompareResult | null | undefined): string {
  if (c === undefined) return '';
  if (c === null) return '<p class="muted">No baseline: regressions not checked.</p>';
  const reg = c.cells.filter((x) => x.regression);
  const items = reg.map(
    (r) =>
      `<li class="regression">${e(r.grader)} in ${e(r.renderer)} × ${e(r.provider)}: ${pct(r.base[0] / r.base[1])} → ${pct(r.run[0] / r.run[1])} (${signedPts(r.delta)}, ${r.worse} pass→fail vs ${r.better} fail→pass)</li>`,
  );
  return `<h2>Regressions against baseline ${e(c.baseRunId)} (${reg.length})</h2>${reg.length ? `<ul>${items.join('')}</ul>` : '<p>None.</p>'}`;
}

/** The page up to the drill-downs: header, gate, regressions, filters, matrices, prompt tokens. Pure. */
export function htmlHead(agg: RunAggregate, opts: HtmlOptions = {}): string {
  const h = agg.header;
  const renderers = [...new Set([...agg.cells.values()].map((c) => c.renderer))];
  const providers = [...new Set([...agg.cells.values()].map((c) => c.provider))];
  const simulated = [...agg.cells.values()].filter((c) => c.simulated).map((c) => c.provider);
  const scriptHash = createHash('sha256').update(SCRIPT).digest('base64');
  const tokens = renderers.map(
    (r) =>
      `<tr data-renderer-row="${e(r)}"><th>${e(r)}</th>${providers
        .map((p) => {
          const c = agg.cells.get(`${r}|${p}`);
          return `<td>${c?.cases ? Math.round(c.promptTokens / c.cases) : '–'}${c?.errors ? ` <span class="chip err">${c.errors} errors</span>` : ''}</td>`;
        })
        .join('')}</tr>`,
  );
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
    '<div class="filters">',
    `<label>grader <select id="f-grader">${options(agg.graderNames)}</select></label>`,
    `<label>renderer <select id="f-renderer">${options(renderers)}</select></label>`,
    `<label>provider <select id="f-provider">${options(providers)}</select></label>`,
    '<label><input type="checkbox" id="f-failing"> failing only</label>',
    '</div>',
    '<h2>Matrix: pass rate per grader (renderer × provider)</h2>',
    ...agg.graderNames.map((g) => matrixSection(agg, g, renderers, providers)),
    '<h3>Prompt tokens (mean per case)</h3>',
    `<table class="tokens"><tr><th>renderer \\ provider</th>${providers.map((p) => `<th>${e(p)}</th>`).join('')}</tr>${tokens.join('')}</table>`,
    '<h2>Cases</h2>',
  ].join('\n');
}

/** What the drill-down section held: embedded cases and the run's totals. */
export interface HtmlCaseCounts {
  embedded: number;
  failingTotal: number;
  passingTotal: number;
  max: number;
}

/** The page after the drill-downs: the cap note and the filter script. Pure. */
export function htmlFoot({ embedded, failingTotal, passingTotal, max }: HtmlCaseCounts): string {
  const all = failingTotal + passingTotal;
  return [
    `<p class="muted" id="cap">Showing <span id="shown">${embedded}</span> of ${embedded} embedded case(s); ${all} in the run${
      embedded < all
        ? `. Drill-downs are capped at ${max} (failing cases first: ${Math.min(failingTotal, max)} of ${failingTotal} failing embedded); the rest are in run.jsonl and results.csv`
        : ''
    }.</p>`,
    `<script>${SCRIPT}</script></body></html>`,
    '',
  ].join('\n');
}

/** A case is failing when it errored or any grader failed: those come first in the drill-down. */
export function isFailing(r: CaseRecord): boolean {
  return r.error !== undefined || r.grades.some((g) => !g.pass);
}

export const DEFAULT_MAX_HTML_CASES = 500;

/**
 * report.html: one self-contained page (inline style and script, no network; a CSP forbids any other
 * source). Streams: the drill-down reads the records twice (failing cases first, then passing), capped at
 * maxCases, so memory does not grow with the run. `records` must return a fresh iterable per call. Pure.
 * (The report writers produce the same page in one pass over the records: report-sink.ts.)
 */
export async function* renderHtml(
  agg: RunAggregate,
  records: () => AsyncIterable<CaseRecord>,
  opts: HtmlOptions = {},
): AsyncGenerator<string> {
  const max = opts.maxCases ?? DEFAULT_MAX_HTML_CASES;
  yield htmlHead(agg, opts);
  let embedded = 0;
  let failingTotal = 0;
  for await (const r of records()) {
    if (!isFailing(r)) continue;
    failingTotal++;
    if (embedded < max) {
      embedded++;
      yield caseHtml(r);
    }
  }
  let passingTotal = 0;
  for await (const r of records()) {
    if (isFailing(r)) continue;
    passingTotal++;
    if (embedded < max) {
      embedded++;
      yield caseHtml(r);
    }
  }
  yield htmlFoot({ embedded, failingTotal, passingTotal, max });
}
