import type { RunAggregate } from '../run-log/aggregate.js';
import { wilson } from './wilson.js';

/** One point of a sweep: a strategy, its swept value, and its pass rates and prompt tokens. */
export interface SweepPoint {
  /** The swept field's value. */
  value: number;
  /** The strategy's label. */
  strategy: string;
  /** Mean prompt tokens per case (local o200k estimate). */
  promptTokensMean: number;
  /** Per grader: passes, graded trials, rate and Wilson 95% interval. */
  graders: Record<string, { pass: number; n: number; rate: number; wilson95: [number, number] }>;
}

/** One provider's curve: a renderer on a variant, one field swept (the variant's other swept fields held). */
export interface SweepSeries {
  provider: string;
  simulated: boolean;
  /** The renderer's label (the strategy label before `@`). */
  renderer: string;
  /** The variant as configured. */
  variant: string;
  field: string;
  /** The other swept fields' values, held along this curve. */
  held: Record<string, number>;
  points: SweepPoint[];
}

/**
 * Sweeps as curves, from the run header's strategies (their variant's swept values) and the aggregate's cells: per
 * provider, renderer, variant and swept field, the strategies in order of the swept value. Pure.
 */
export function sweepSeries(agg: RunAggregate): SweepSeries[] {
  const out = new Map<string, SweepSeries>();
  for (const s of agg.header.strategies) {
    const sweep = s.variant?.sweep;
    if (!s.variant || !sweep) continue;
    const renderer = s.label.endsWith(`@${s.variant.name}`)
      ? s.label.slice(0, s.label.length - s.variant.name.length - 1)
      : s.label;
    for (const field of Object.keys(sweep)) {
      const held = Object.fromEntries(Object.entries(sweep).filter(([f]) => f !== field));
      for (const p of agg.header.providers) {
        const cell = agg.cells.get(`${s.label}|${p.label}`);
        if (!cell || cell.cases === 0) continue;
        const key = JSON.stringify([p.label, renderer, s.variant.base, field, held]);
        let series = out.get(key);
        if (!series) {
          series = {
            provider: p.label,
            simulated: p.simulated,
            renderer,
            variant: s.variant.base,
            field,
            held,
            points: [],
          };
          out.set(key, series);
        }
        series.points.push({
          value: sweep[field] as number,
          strategy: s.label,
          promptTokensMean: Math.round(cell.promptTokens / cell.cases),
          graders: Object.fromEntries(
            [...cell.graders].map(([g, t]) => [
              g,
              { pass: t.pass, n: t.n, rate: t.n ? t.pass / t.n : 0, wilson95: wilson(t.pass, t.n) },
            ]),
          ),
        });
      }
    }
  }
  const list = [...out.values()].filter((s) => s.points.length > 1);
  for (const s of list) s.points.sort((a, b) => a.value - b.value);
  return list;
}
