import type { CompareResult } from './compare.js';
import { bySensitivity, detectDrop, undetectableGroups } from './detect-text.js';
import { mdText } from './markdown-text.js';

const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * "What this gate can detect" (summary.md, compare.md): per compared cell × grader, the smallest drop caught with 80%
 * power at this n and k, least sensitive first; at most `maxRows` rows. Pure.
 */
export function detectMarkdown(r: CompareResult, maxRows = Number.POSITIVE_INFINITY): string[] {
  if (!r.cells.length) return [];
  const cells = bySensitivity(r.cells);
  const power = Math.round((cells[0]?.detect.power ?? 0.8) * 100);
  const assumed = cells.some((c) => !c.detect.flipMeasured);
  const lines = [
    '## What this gate can detect',
    '',
    `The smallest drop in pass rate that fails the gate with ${power}% power, per cell × grader, at this comparison's cases (n) and repeats (k): from the baseline's pass rate and its flip rate (how often two repeats of a case disagree). A smaller drop may pass unseen${r.options.maxRegression > 0 ? `, and a drop of ${(r.options.maxRegression * 100).toFixed(1)} points or less (\`maxRegression\`) is never flagged` : ''}. \`toolgauge plan\` gives the n and k a smaller drop needs.${assumed ? ' Where the baseline has one trial per case its flip rate is unknown and taken at its worst, so the figure may be pessimistic.' : ''}`,
    '',
    `| renderer | provider | grader | detects (${power}% power) | n | k | baseline | flip rate |`,
    '|---|---|---|---:|---:|---:|---:|---:|',
  ];
  const detecting = cells.filter((c) => c.detect.drop !== null);
  for (const c of detecting.slice(0, maxRows)) {
    const d = c.detect;
    lines.push(
      `| ${mdText(c.renderer)} | ${mdText(c.provider)} | ${mdText(c.grader)} | ${detectDrop(d)} | ${d.cases} | ${d.repeats} | ${pct1(d.baseRate)} | ${pct1(d.flipRate)}${d.flipMeasured ? '' : ' (assumed)'} |`,
    );
  }
  if (detecting.length > maxRows)
    lines.push('', `… ${detecting.length - maxRows} more cell × grader(s) in compare.md.`);
  const none = undetectableGroups(cells);
  if (none.length) {
    lines.push('', 'No drop is detectable with 80% power in:', '');
    for (const g of none) lines.push(`- ${mdText(g)}`);
  }
  return lines;
}
