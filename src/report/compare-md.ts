import type { CompareResult } from './compare.js';
import { detectMarkdown } from './detect-markdown.js';
import { fmtP, pct, signedPts } from './format.js';
import { mdCode, mdText } from './markdown-text.js';

const rate = ([p, n]: [number, number]) => (n ? p / n : 0);
const pts = (x: number) => `${(x * 100).toFixed(1)} percentage points`;

/** compare.md: regressions first, then every cell's delta, case flips, added/removed cases. Pure. */
export function renderCompare(r: CompareResult, maxFlips = 50): string {
  const lines: string[] = [];
  const regressions = r.cells.filter((c) => c.regression);
  const changed = r.cells.filter((c) => c.worse || c.better);
  lines.push(`# toolgauge compare: ${mdText(r.baseRunId)} → ${mdText(r.runId)}`);
  lines.push('');
  lines.push(
    `Paired per case: exact sign-flip test on each case's change in pass rate (the exact McNemar test when cases have one trial each), Holm-corrected over ${r.cells.length} cell × grader comparison(s) at alpha ${r.options.alpha}; a regression is a significant drop of more than ${pts(r.options.maxRegression)}.`,
  );
  if (r.configChanged)
    lines.push(
      '',
      '> The configuration differs from the baseline’s (config hash changed): a change may come from the configuration rather than the model.',
    );
  lines.push('');
  lines.push(`## Regressions (${regressions.length})`);
  lines.push('');
  if (!regressions.length) lines.push('None.');
  for (const c of regressions) {
    lines.push(
      `- **${mdText(c.grader)}** in ${mdText(c.renderer)} × ${mdText(c.provider)}: ${pct(rate(c.base))} → ${pct(rate(c.run))} (${signedPts(c.delta)}; ${c.worse} pass→fail, ${c.better} fail→pass; p=${fmtP(c.pAdjusted)})`,
    );
  }
  lines.push('');
  lines.push(`## Cells that changed (${changed.length} of ${r.cells.length})`);
  lines.push('');
  if (changed.length) {
    lines.push(
      '| renderer | provider | grader | baseline | run | delta | pass→fail | fail→pass | cases worse / better | p | p (Holm) | judgement |',
    );
    lines.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const c of changed) {
      const judgement = c.regression
        ? 'REGRESSION'
        : c.significant
          ? c.delta < 0
            ? 'significant, within tolerance'
            : 'significant improvement'
          : 'noise';
      lines.push(
        `| ${mdText(c.renderer)} | ${mdText(c.provider)} | ${mdText(c.grader)} | ${pct(rate(c.base))} (${c.base[0]}/${c.base[1]}) | ${pct(rate(c.run))} (${c.run[0]}/${c.run[1]}) | ${signedPts(c.delta)} | ${c.worse} | ${c.better} | ${c.casesWorse} / ${c.casesBetter} | ${fmtP(c.p)} | ${fmtP(c.pAdjusted)} | ${judgement} |`,
      );
    }
  } else lines.push('No cell changed.');
  lines.push('', ...detectMarkdown(r));
  const worse = r.flips.filter((f) => f.from === 'pass' && f.to !== 'pass');
  const better = r.flips.filter((f) => f.from !== 'pass' && f.to === 'pass');
  const other = r.flips.length - worse.length - better.length;
  lines.push('');
  lines.push(`## Case flips: ${worse.length} pass→fail, ${better.length} fail→pass, ${other} other`);
  lines.push('');
  for (const [title, list] of [
    ['pass→fail', worse],
    ['fail→pass', better],
  ] as const) {
    if (!list.length) continue;
    lines.push(`### ${title}${list.length > maxFlips ? ` (first ${maxFlips} of ${list.length})` : ''}`);
    lines.push('');
    for (const f of list.slice(0, maxFlips)) {
      lines.push(
        `- ${mdCode(f.key)} ${mdText(f.grader)}: ${f.from} (${f.base[0]}/${f.base[1]}) → ${f.to} (${f.run[0]}/${f.run[1]})`,
      );
    }
    lines.push('');
  }
  lines.push(`## Cases added (${r.added.length}) and removed (${r.removed.length})`);
  lines.push('');
  for (const k of r.added.slice(0, maxFlips)) lines.push(`- added ${mdCode(k)}`);
  for (const k of r.removed.slice(0, maxFlips)) lines.push(`- removed ${mdCode(k)}`);
  if (r.added.length + r.removed.length > 2 * maxFlips) lines.push('- …');
  return `${lines.join('\n')}\n`;
}
