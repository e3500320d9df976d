import type { RunAggregate } from '../run-log/aggregate.js';
import type { CompareResult } from './compare.js';
import { bySensitivity, detectDrop } from './detect-text.js';
import { flakyCases } from './flaky-cases.js';
import { escapeHtml as e } from './html-escape.js';

const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * report.html's gate sections: the configuration warning and "What this gate can detect" (every compared cell ×
 * grader, least sensitive first) when compared with a baseline, and the flaky cases when the run has repeats. Pure.
 */
export function gateHtml(agg: RunAggregate, comparison: CompareResult | null | undefined, maxFlaky = 200): string {
  return [comparison ? detectHtml(comparison) : '', flakyHtml(agg, maxFlaky)].join('\n');
}

function detectHtml(c: CompareResult): string {
  const cells = bySensitivity(c.cells);
  const warning = c.configChanged
    ? '<p class="regression">The configuration differs from the baseline\'s (config hash changed): a change may come from the configuration rather than the model.</p>'
    : '';
  if (!cells.length) return warning;
  const power = Math.round((cells[0]?.detect.power ?? 0.8) * 100);
  const rows = cells.map((x) => {
    const d = x.detect;
    return `<tr><th>${e(x.renderer)}</th><td class="l">${e(x.provider)}</td><td class="l">${e(x.grader)}</td><td>${e(detectDrop(d))}</td><td>${d.cases}</td><td>${d.repeats}</td><td>${pct1(d.baseRate)}</td><td>${pct1(d.flipRate)}${d.flipMeasured ? '' : ' <small class="muted">assumed</small>'}</td></tr>`;
  });
  return [
    warning,
    '<section id="detect"><h2>What this gate can detect</h2>',
    `<p class="muted">The smallest drop in pass rate that fails the gate with ${power}% power, per cell × grader, at this comparison's cases (n) and repeats (k), from the baseline's pass rate and flip rate (how often two repeats of a case disagree; assumed at its worst when the baseline has one trial per case). A smaller drop may pass unseen${c.options.maxRegression > 0 ? `; a drop of ${(c.options.maxRegression * 100).toFixed(1)} points or less is never flagged` : ''}. <code>toolgauge plan</code> gives the n and k a smaller drop needs.</p>`,
    `<table class="detect"><tr><th>renderer</th><th>provider</th><th>grader</th><th>detects (${power}% power)</th><th>n</th><th>k</th><th>baseline</th><th>flip rate</th></tr>${rows.join('')}</table></section>`,
  ].join('\n');
}

function flakyHtml(agg: RunAggregate, maxFlaky: number): string {
  const r = flakyCases(agg, maxFlaky);
  if (!r.total) return '';
  const k = r.repeats;
  const cells = r.cells.map(
    (c) =>
      `<tr><th>${e(c.renderer)}</th><td class="l">${e(c.provider)}</td><td class="l">${e(c.grader)}</td><td>${c.flaky} of ${c.repeated}</td><td>${pct1(c.passAt1)}</td><td>${c.passHatK === null ? '–' : pct1(c.passHatK)}</td></tr>`,
  );
  const items = r.cases.map((c) => `<li><code>${e(c.key)}</code> ${e(c.grader)}: ${c.pass}/${c.n} repeats passed</li>`);
  return [
    `<section id="flaky"><h2>Flaky cases (${r.total})</h2>`,
    `<p class="muted">Cases whose repeats disagree in the same cell: they pull pass^${k} below pass@1 and make the gate noisy.</p>`,
    `<table class="flaky"><tr><th>renderer</th><th>provider</th><th>grader</th><th>flaky cases</th><th>pass@1</th><th>pass^${k}</th></tr>${cells.join('')}</table>`,
    `<p>${r.cases.length < r.total ? `The ${r.cases.length} closest to a coin toss:` : 'Closest to a coin toss first:'}</p><ul class="flaky-cases">${items.join('')}</ul></section>`,
  ].join('\n');
}
