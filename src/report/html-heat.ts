import { pct } from './format.js';

/**
 * Position of a pass rate on the heat scale, 0 (all pass) to 1 (all fail), spaced by the failure rate on a log
 * scale: 100% → 0, 99% → 0.15, 95% → 0.39, 91% → 0.5, 80% → 0.65, 50% → 0.85, 0% → 1. On a linear hue scale 91%
 * and 100% look alike; here they sit half the scale apart. Pure.
 */
export function heatPosition(rate: number): number {
  const fail = Math.min(1, Math.max(0, 1 - rate));
  return Math.log10(1 + 99 * fail) / 2;
}

/** Background of a matrix cell: green (all pass) through yellow to red (all fail), light enough for black text. */
export function heatStyle(rate: number): string {
  const t = heatPosition(rate);
  const hue = Math.round(135 * (1 - t));
  const light = Math.round(74 + 8 * t);
  return `background:hsl(${hue},70%,${light}%)`;
}

/** The scale's key, as swatches with their rates. */
export function heatLegend(): string {
  return `<span class="legend">${[1, 0.99, 0.95, 0.91, 0.8, 0.5, 0]
    .map((r) => `<span style="${heatStyle(r)}">${pct(r)}</span>`)
    .join('')}</span>`;
}
