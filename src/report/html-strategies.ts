import { pct, signedPts } from './format.js';
import { escapeHtml as e } from './html-escape.js';
import { tradeoffSvg } from './html-tradeoff.js';
import type { StrategyComparison } from './strategy-comparison.js';
import { tradeoffPoints } from './tradeoff.js';

/** Points with a sign, no unit: +0.0, −71.6. */
const pts = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

function pValue(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** One provider's table for one grader: each strategy against the provider's best on the same cases. */
function comparisonTable(sc: StrategyComparison): string {
  const front = new Set(
    tradeoffPoints(sc)
      .filter((p) => p.pareto)
      .map((p) => p.renderer),
  );
  const rows = sc.rows.map((r) => {
    const v = r.vsBest;
    const vs = r.best
      ? '<td colspan="2" class="l best">best</td>'
      : r.tie
        ? '<td colspan="2" class="l">tie</td>'
        : r.reference
          ? '<td colspan="2" class="l muted">the only strategy</td>'
          : v
            ? `<td${v.significant ? ' class="sig"' : ''} title="${v.pairs} paired trials">${signedPts(v.diff)} <small>(${pts(v.ci95[0])} to ${pts(v.ci95[1])})</small></td><td${v.significant ? ' class="sig"' : ''}>${pValue(v.pAdjusted)}${v.significant ? ' significant' : ''} <small>${v.onlyThis}↑ ${v.onlyBest}↓</small></td>`
            : '<td colspan="2" class="l muted">no shared case</td>';
    return `<tr data-renderer="${e(r.renderer)}"${r.best ? ' class="best"' : r.tie ? ' class="tie"' : ''}><th>${r.best ? '★ ' : ''}${e(r.renderer)}</th><td>${pct(r.rate)} <small>(${r.pass}/${r.n}, ${pct(r.wilson95[0])}–${pct(r.wilson95[1])})</small></td><td>${r.promptTokensMean}${front.has(r.renderer) ? ' <small>front</small>' : ''}</td>${vs}</tr>`;
  });
  return [
    `<table class="strategy-comparison"><tr><th>strategy</th><th>pass rate (95%)</th><th title="mean prompt tokens; front: on the Pareto front">tokens</th><th>vs best, same cases (95%)</th><th>p (McNemar, Holm)</th></tr>`,
    rows.join(''),
    '</table>',
  ].join('');
}

/**
 * "Which strategy?": per provider (never pooled), the trade-off chart of pass rate against prompt tokens and the
 * paired comparison of every strategy with the provider's best, one block per grader (a selector shows one). Pure.
 */
export function strategiesSection(comparisons: StrategyComparison[], graders: string[], renderers: string[]): string {
  const providers = [...new Map(comparisons.map((c) => [c.provider, c.simulated])).entries()];
  const shapeOf = (r: string) => Math.max(0, renderers.indexOf(r));
  const first = graders.includes('correct-arguments') ? 'correct-arguments' : (graders[0] ?? '');
  const blocks = providers.map(([p, sim]) => {
    const perGrader = comparisons
      .filter((c) => c.provider === p)
      .map((c) => {
        const caption = `${c.grader} for ${p}: pass rate against mean prompt tokens per strategy`;
        return `<div class="sc" data-grader="${e(c.grader)}"${c.grader === first ? '' : ' hidden'}>${tradeoffSvg(tradeoffPoints(c), shapeOf, caption)}${comparisonTable(c)}</div>`;
      });
    return `<div class="provider" data-provider="${e(p)}"><h3>${e(p)}${sim ? ' <span class="sim">(simulated)</span>' : ''}</h3>${perGrader.join('')}</div>`;
  });
  return [
    '<section id="strategies"><h2>Which strategy? Per provider</h2>',
    `<p><label>grader <select id="s-grader">${graders.map((g) => `<option value="${e(g)}"${g === first ? ' selected' : ''}>${e(g)}</option>`).join('')}</select></label></p>`,
    '<p class="muted">Each chart: pass rate (bar: Wilson 95% interval) against mean prompt tokens, one marker shape per strategy; filled markers joined by the dashed line are the Pareto front (no other strategy passes more for fewer tokens). Each table pairs every strategy with the provider\'s best (★: the one strategy with the highest pass rate; in a tie, the tied strategy with the fewest tokens) on the same cases: difference in points, Newcombe 95% interval, exact McNemar p Holm-corrected over the provider\'s comparisons (↑ cases only this strategy passed, ↓ only the best passed).</p>',
    `<div class="providers">${blocks.join('')}</div>`,
    '</section>',
  ].join('\n');
}
