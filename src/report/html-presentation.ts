import type { RunAggregate } from '../run-log/aggregate.js';
import type { Confusion, ToolTally } from '../run-log/presentation-tally.js';
import { pct } from './format.js';
import { escapeHtml as e } from './html-escape.js';
import { sweepsSection } from './html-sweeps.js';
import { type PresentationCellJson, presentationJson } from './presentation-json.js';

const OUTCOMES: [keyof ToolTally, string][] = [
  ['right', 'right'],
  ['wrongArguments', 'wrong arguments'],
  ['otherTool', 'another tool'],
  ['distractor', 'a distractor'],
  ['hallucinated', 'hallucinated'],
  ['noCall', 'no call'],
];

/** Tools with a miss first (most misses first), then the tools always called right, folded away. */
function toolTable(tools: ToolTally[]): string {
  const missed = tools
    .filter((t) => t.right < t.expected)
    .sort((a, b) => b.expected - b.right - (a.expected - a.right));
  const right = tools.filter((t) => t.right === t.expected);
  const table = (list: ToolTally[]) => `<table class="per-tool">${head}${list.map(row).join('')}</table>`;
  const names = right.map((t) => `${e(t.tool)} <small>(${t.expected})</small>`).join(', ');
  return [
    missed.length ? table(missed) : '<p class="muted">Every expected call was right.</p>',
    right.length ? `<p class="all-right muted">Every expected call right (times expected): ${names}</p>` : '',
  ].join('');
}

const head = `<tr><th>expected tool</th><th>expected calls</th>${OUTCOMES.map(([, l]) => `<th>${l}</th>`).join('')}<th>right rate</th></tr>`;

function row(t: ToolTally): string {
  return `<tr data-tool="${e(t.tool)}" data-expected="${t.expected}"${OUTCOMES.map(([k]) => ` data-${k.toLowerCase()}="${t[k]}"`).join('')}><th>${e(t.tool)}</th><td>${t.expected}</td>${OUTCOMES.map(([k]) => `<td${k !== 'right' && Number(t[k]) > 0 ? ' class="bad-n"' : ''}>${t[k]}</td>`).join('')}<td>${t.expected ? pct(t.right / t.expected) : '–'}</td></tr>`;
}

const calledLabel = (c: Confusion) =>
  c.how === 'distractor' ? 'distractor' : c.how === 'hallucinated' ? 'hallucinated (no such tool)' : 'another tool';

function confusionTable(confusions: Confusion[]): string {
  if (confusions.length === 0) return '<p class="muted">No tool was taken for another.</p>';
  const rows = confusions.map(
    (c) =>
      `<tr class="confusion" data-expected="${e(c.expected)}" data-called="${e(c.called)}" data-how="${e(c.how)}" data-count="${c.count}"><th>${e(c.expected)}</th><td class="l desc">${e(c.descriptions?.expected ?? '')}</td><td class="l"><b>${e(c.called)}</b> <small>${calledLabel(c)}</small></td><td class="l desc">${e(c.descriptions?.called ?? '')}</td><td>${c.count}</td></tr>`,
  );
  return `<table class="confusions"><tr><th>expected tool</th><th>its description</th><th>called instead</th><th>its description</th><th>times</th></tr>${rows.join('')}</table>`;
}

function searchLine(c: PresentationCellJson): string {
  const s = c.search;
  if (!s) return '';
  const per = (x: number) => (s.cases ? (x / s.cases).toFixed(1) : '–');
  return `<p class="search" data-searches="${s.searches}" data-found="${s.found}" data-cases="${s.cases}">Tool search: ${per(s.searches)} searches per case; the expected tools found within k in ${s.found} of ${s.cases} cases (${s.cases ? pct(s.found / s.cases) : '–'}); ${per(s.searchTurns)} turns per case spent on searches alone; ${c.turnsMean} turns and ${c.inputTokensMean} input tokens per case.</p>`;
}

/** Confusions a strategy's table shows before folding the rest away. */
const SHOWN_CONFUSIONS = 10;

function cellBlock(c: PresentationCellJson, open: boolean): string {
  const expected = c.tools.reduce((n, t) => n + t.expected, 0);
  const right = c.tools.reduce((n, t) => n + t.right, 0);
  const wrongTool = c.confusions.reduce((n, x) => n + x.count, 0);
  const summary = `${e(c.renderer)} · ${right}/${expected} expected calls right · ${wrongTool} wrong tool`;
  const allRight = right === expected && !c.search;
  return [
    `<details class="why-cell" data-renderer="${e(c.renderer)}" data-provider="${e(c.provider)}" data-right="${right}" data-expected="${expected}" data-wrong-tool="${wrongTool}"${open ? ' open' : ''}><summary>${summary}</summary>`,
    searchLine(c),
    allRight ? '<p class="muted">Every expected call was right.</p>' : toolTable(c.tools),
    wrongTool > 0 ? '<h4>Tools taken for others</h4>' : '',
    wrongTool > 0 ? confusionTable(c.confusions.slice(0, SHOWN_CONFUSIONS)) : '',
    c.confusions.length > SHOWN_CONFUSIONS
      ? `<details class="more-confusions"><summary>${c.confusions.length - SHOWN_CONFUSIONS} more</summary>${confusionTable(c.confusions.slice(SHOWN_CONFUSIONS))}</details>`
      : '',
    '</details>',
  ].join('');
}

/**
 * "Why strategies fail": per provider and strategy, a table per expected tool (right, wrong arguments, another tool,
 * a distractor, a hallucination, no call, and the right rate), every tool taken for another with the two descriptions
 * as the model read them side by side, and tool-search counts; then the sweeps. Everything escaped. Pure.
 */
export function presentationSection(agg: RunAggregate): string {
  const data = presentationJson(agg);
  const cells = data.cells.filter((c) => c.tools.length > 0 || c.search);
  const providers = [...new Map(cells.map((c) => [c.provider, c.simulated])).entries()];
  const wrong = (c: PresentationCellJson) => c.confusions.reduce((n, x) => n + x.count, 0);
  const blocks = providers.map(([p, sim]) => {
    const mine = cells.filter((c) => c.provider === p);
    // the strategy that took the most tools for others opens by itself
    const worst = mine.reduce<PresentationCellJson | undefined>(
      (w, c) => (wrong(c) > (w ? wrong(w) : 0) ? c : w),
      undefined,
    );
    return `<div class="provider" data-provider="${e(p)}"><h3>${e(p)}${sim ? ' <span class="sim">(simulated)</span>' : ''}</h3>${mine
      .map((c) => cellBlock(c, c === worst))
      .join('')}</div>`;
  });
  return [
    '<section id="why"><h2>Why strategies fail: which tool was taken for which</h2>',
    '<p class="muted">Per expected call (correct-arguments): the right tool with the right arguments, the right tool with wrong arguments, another offered tool, a distractor a catalog variant added, a tool nobody offered, or nothing in its place. Per provider, the strategy that took the most tools for others is open; the descriptions are those the model read (a variant may have rewritten or cut them).</p>',
    blocks.length ? blocks.join('') : '<p>No expected call was graded.</p>',
    '</section>',
    sweepsSection(data.sweeps, agg.graderNames),
  ].join('\n');
}
