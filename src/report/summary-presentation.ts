import type { RunAggregate } from '../run-log/aggregate.js';
import type { Confusion } from '../run-log/presentation-tally.js';
import { pct } from './format.js';
import { mdText } from './markdown-text.js';
import { type PresentationCellJson, presentationJson, sortedConfusions } from './presentation-json.js';
import type { SweepSeries } from './sweeps.js';

/** How many confusions per provider summary.md lists (report.html lists them all). */
export const TOP_CONFUSIONS = 5;

const calledText = (c: Confusion) =>
  c.how === 'distractor'
    ? `distractor ${c.called}`
    : c.how === 'hallucinated'
      ? `${c.called} (hallucinated)`
      : c.called;

/** The grader a sweep or search table shows: correct-arguments when the run has it. */
function mainGrader(agg: RunAggregate): string | undefined {
  return agg.graderNames.includes('correct-arguments') ? 'correct-arguments' : agg.graderNames[0];
}

function confusionLines(cells: PresentationCellJson[]): string[] {
  const providers = [...new Map(cells.map((c) => [c.provider, c.simulated])).entries()];
  const lines: string[] = [];
  for (const [provider, simulated] of providers) {
    const all = sortedConfusions(
      cells
        .filter((c) => c.provider === provider)
        .flatMap((c) => c.confusions.map((x) => ({ ...x, strategy: c.renderer }))),
    ) as (Confusion & { strategy: string })[];
    if (all.length === 0) continue;
    lines.push('', `### ${mdText(provider)}${simulated ? ' (simulated)' : ''}`, '');
    lines.push('| strategy | expected tool | called instead | times |', '|---|---|---|---:|');
    for (const c of all.slice(0, TOP_CONFUSIONS)) {
      lines.push(`| ${mdText(c.strategy)} | ${mdText(c.expected)} | ${mdText(calledText(c))} | ${c.count} |`);
    }
  }
  if (lines.length === 0) return [];
  return [
    '',
    '## Why strategies fail',
    '',
    `The tools most often called in place of the expected one, top ${TOP_CONFUSIONS} per provider (report.html has each strategy's table, per tool, with the two descriptions side by side).`,
    ...lines,
  ];
}

function sweepLines(series: SweepSeries[], grader: string | undefined): string[] {
  if (series.length === 0 || !grader) return [];
  const lines = [
    '',
    '## Sweeps',
    '',
    `${mdText(grader)} pass rate at each swept value, with mean prompt tokens in brackets. Providers are not pooled.`,
  ];
  const providers = [...new Map(series.map((s) => [s.provider, s.simulated])).entries()];
  for (const [provider, simulated] of providers) {
    const mine = series.filter((s) => s.provider === provider);
    lines.push('', `### ${mdText(provider)}${simulated ? ' (simulated)' : ''}`, '');
    for (const s of mine) {
      const held = Object.entries(s.held).map(([f, v]) => `${f}=${v}`);
      lines.push(
        `| ${mdText(`${s.renderer} @ ${s.variant}${held.length ? ` (${held.join(', ')})` : ''}`)} · ${mdText(s.field)} | ${s.points.map((p) => String(p.value)).join(' | ')} |`,
        `|---|${s.points.map(() => '---:').join('|')}|`,
        `| ${mdText(grader)} | ${s.points
          .map((p) => {
            const t = p.graders[grader];
            return t && t.n > 0
              ? `${pct(t.rate)} [${pct(t.wilson95[0])}–${pct(t.wilson95[1])}] (${p.promptTokensMean})`
              : '–';
          })
          .join(' | ')} |`,
        '',
      );
    }
    lines.pop();
  }
  return lines;
}

function searchLines(cells: PresentationCellJson[]): string[] {
  const searched = cells.filter((c) => c.search);
  if (searched.length === 0) return [];
  const lines = [
    '',
    '## Tool search',
    '',
    'Per tool-search strategy: searches per case, cases whose expected tools a search found within k, turns spent on searches alone, and what a case cost in turns and provider-reported input tokens.',
    '',
    '| strategy | provider | searches/case | found within k | search turns/case | turns/case | input tokens/case |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const c of searched) {
    const s = c.search!;
    const per = (x: number) => (s.cases ? (x / s.cases).toFixed(1) : '–');
    lines.push(
      `| ${mdText(c.renderer)} | ${mdText(c.simulated ? `${c.provider} (simulated)` : c.provider)} | ${per(s.searches)} | ${s.cases ? pct(s.found / s.cases) : '–'} (${s.found}/${s.cases}) | ${per(s.searchTurns)} | ${c.turnsMean} | ${c.inputTokensMean} |`,
    );
  }
  return lines;
}

/** summary.md's presentation sections: why strategies fail (top confusions), sweeps, tool search. Pure. */
export function presentationMarkdown(agg: RunAggregate): string[] {
  const data = presentationJson(agg);
  return [...confusionLines(data.cells), ...sweepLines(data.sweeps, mainGrader(agg)), ...searchLines(data.cells)];
}
