import type { RunAggregate } from '../run-log/aggregate.js';
import type { Confusion, SearchTally, ToolTally } from '../run-log/presentation-tally.js';
import { type SweepSeries, sweepSeries } from './sweeps.js';

/** A cell's "why it fails" numbers as run.json holds them (report.html and summary.md show the same). */
export interface PresentationCellJson {
  renderer: string;
  provider: string;
  simulated: boolean;
  /** Graded cases, and their mean turns and provider-reported input tokens. */
  cases: number;
  turnsMean: number;
  inputTokensMean: number;
  /** Per expected tool, most expected first. */
  tools: ToolTally[];
  /** Wrong-tool choices, most frequent first. */
  confusions: Confusion[];
  /** Present for a tool-search strategy. */
  search?: SearchTally;
}

export interface PresentationJson {
  cells: PresentationCellJson[];
  sweeps: SweepSeries[];
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The presentation numbers of a run, from its aggregate. Pure. */
export function presentationJson(agg: RunAggregate): PresentationJson {
  const cells: PresentationCellJson[] = [];
  for (const c of agg.presentation.cells.values()) {
    cells.push({
      renderer: c.renderer,
      provider: c.provider,
      simulated: c.simulated,
      cases: c.cases,
      turnsMean: c.cases ? round1(c.turns / c.cases) : 0,
      inputTokensMean: c.cases ? Math.round(c.inputTokens / c.cases) : 0,
      tools: [...c.tools.values()].sort((a, b) => b.expected - a.expected || (a.tool < b.tool ? -1 : 1)),
      confusions: sortedConfusions([...c.confusions.values()]),
      ...(c.search.cases > 0 ? { search: c.search } : {}),
    });
  }
  // in the run's order: strategies as planned, then providers
  const s = agg.header.strategies.map((x) => x.label);
  const p = agg.header.providers.map((x) => x.label);
  const at = (list: string[], v: string) => (list.includes(v) ? list.indexOf(v) : list.length);
  cells.sort((a, b) => at(s, a.renderer) - at(s, b.renderer) || at(p, a.provider) - at(p, b.provider));
  return { cells, sweeps: sweepSeries(agg) };
}

/** Most frequent first; ties by expected tool, then called tool, so the order is stable. */
export function sortedConfusions(list: Confusion[]): Confusion[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return list.sort((a, b) => b.count - a.count || cmp(a.expected, b.expected) || cmp(a.called, b.called));
}
