import type { RunAggregate } from '../run-log/aggregate.js';
import type { CompareResult } from './compare.js';
import { detectMarkdown } from './detect-markdown.js';
import { type FlakyReport, flakyCases } from './flaky-cases.js';
import { mdCode, mdText } from './markdown-text.js';

const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Cell × grader rows of "What this gate can detect" in summary.md; compare.md has them all. */
const MAX_DETECT_ROWS = 20;

/** After summary.md's regressions: the configuration warning, and what the gate can detect. Pure. */
export function comparisonNotes(c: CompareResult): string[] {
  const lines: string[] = [];
  if (c.configChanged)
    lines.push(
      '',
      "> **The configuration differs from the baseline's** (config hash changed): a change may come from the configuration rather than the model.",
    );
  const detect = detectMarkdown(c, MAX_DETECT_ROWS);
  if (detect.length) lines.push('', ...detect);
  return lines;
}

/** summary.md's "Flaky cases" section (empty without repeats or without flaky cases). Pure. */
export function flakyMarkdown(agg: RunAggregate, maxCases = 20): string[] {
  return flakyLines(flakyCases(agg, maxCases));
}

function flakyLines(r: FlakyReport): string[] {
  if (!r.total) return [];
  const k = r.repeats;
  const lines = [
    '',
    `## Flaky cases (${r.total})`,
    '',
    `Cases whose repeats disagree in the same cell: they pull pass^${k} below pass@1 and are what makes the gate noisy (its flip rate). Pin them down, or expect the gate to need more repeats (\`toolgauge plan\`).`,
    '',
    `| renderer | provider | grader | flaky cases | pass@1 | pass^${k} |`,
    '|---|---|---|---:|---:|---:|',
  ];
  for (const c of r.cells) {
    lines.push(
      `| ${mdText(c.renderer)} | ${mdText(c.provider)} | ${mdText(c.grader)} | ${c.flaky} of ${c.repeated} | ${pct1(c.passAt1)} | ${c.passHatK === null ? '–' : pct1(c.passHatK)} |`,
    );
  }
  lines.push(
    '',
    r.cases.length < r.total ? `The ${r.cases.length} closest to a coin toss:` : 'Closest to a coin toss first:',
    '',
  );
  for (const c of r.cases) lines.push(`- ${mdCode(c.key)} ${mdText(c.grader)}: ${c.pass}/${c.n} repeats passed`);
  return lines;
}
