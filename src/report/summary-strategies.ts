import type { RunAggregate } from '../run-log/aggregate.js';
import { pct } from './format.js';
import { mdText } from './markdown-text.js';
import { compareStrategies, type StrategyRow } from './strategy-comparison.js';

/** Points with a sign, one decimal, no unit: +0.0, −71.6. */
const pts = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

function cellText(row: StrategyRow | undefined): string {
  if (!row) return '–';
  if (row.best) return `**${pct(row.rate)}** ★ best`;
  if (row.tie) return `${pct(row.rate)} · tie`;
  const v = row.vsBest;
  if (!v) return pct(row.rate);
  const diff = `${pts(v.diff)} [${pts(v.ci95[0])}, ${pts(v.ci95[1])}]`;
  if (!v.significant) return `${pct(row.rate)} · ${diff} n.s.`;
  return `${pct(row.rate)} · **${diff}** ${v.pAdjusted < 0.001 ? 'p<0.001' : `p=${v.pAdjusted.toFixed(3)}`}`;
}

/**
 * "Which strategy?" for the Markdown summary: per provider (never pooled), each strategy's pass rate per grader and
 * its paired difference from the provider's best strategy on the same cases (Newcombe 95% interval, exact McNemar p
 * Holm-corrected over the provider's comparisons; bold when significant), with its mean prompt tokens. Pure.
 */
export function strategiesMarkdown(agg: RunAggregate): string[] {
  const all = compareStrategies(agg);
  if (!all.length) return [];
  const renderers = [...new Set([...agg.cells.values()].map((c) => c.renderer))];
  const providers = [...new Map(all.map((c) => [c.provider, c.simulated])).entries()];
  const graders = agg.graderNames;
  const lines = [
    '',
    '## Strategies per provider',
    '',
    "Each strategy against the provider's best (★, the one strategy with the highest pass rate; tie when several share it, and the others are then compared with the tied one with the fewest prompt tokens) on the same cases: pass rate · difference in points [95% interval], bold with its exact McNemar p (Holm-corrected) when significant, n.s. when not. Providers are not pooled.",
  ];
  for (const [provider, simulated] of providers) {
    lines.push('', `### ${mdText(provider)}${simulated ? ' (simulated)' : ''}`, '');
    lines.push(`| strategy | prompt tokens | ${graders.map((g) => mdText(g)).join(' | ')} |`);
    lines.push(`|---|---:|${graders.map(() => '---').join('|')}|`);
    for (const r of renderers) {
      const rows = graders.map((g) =>
        all.find((c) => c.provider === provider && c.grader === g)?.rows.find((x) => x.renderer === r),
      );
      const any = rows.find((x) => x !== undefined);
      if (!any) continue;
      lines.push(`| ${mdText(r)} | ${any.promptTokensMean} | ${rows.map(cellText).join(' | ')} |`);
    }
  }
  return lines;
}
