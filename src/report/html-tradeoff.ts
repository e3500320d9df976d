import { pct } from './format.js';
import { escapeHtml as e } from './html-escape.js';
import type { TradeoffPoint } from './tradeoff.js';

const W = 540;
const H = 250;
const M = { l: 44, r: 250, t: 12, b: 36 };

/** Marker shapes, one per strategy (in the run's strategy order), so the chart reads without colour. */
const SHAPES = ['circle', 'square', 'triangle', 'diamond', 'cross', 'star'] as const;

function marker(shape: (typeof SHAPES)[number], x: number, y: number, filled: boolean): string {
  const f = filled ? 'currentColor' : '#fff';
  const s = `fill="${f}" stroke="currentColor" stroke-width="1.6"`;
  const r = 5;
  switch (shape) {
    case 'circle':
      return `<circle cx="${x}" cy="${y}" r="${r}" ${s}/>`;
    case 'square':
      return `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" ${s}/>`;
    case 'triangle':
      return `<path d="M${x} ${y - r - 1}L${x + r + 1} ${y + r}L${x - r - 1} ${y + r}Z" ${s}/>`;
    case 'diamond':
      return `<path d="M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z" ${s}/>`;
    case 'cross':
      return `<path d="M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}" stroke="currentColor" stroke-width="${filled ? 3 : 1.6}"/>`;
    case 'star':
      return `<path d="M${x} ${y - r - 1}L${x + 2} ${y - 2}L${x + r + 1} ${y}L${x + 2} ${y + 2}L${x} ${y + r + 1}L${x - 2} ${y + 2}L${x - r - 1} ${y}L${x - 2} ${y - 2}Z" ${s}/>`;
  }
}

function niceMax(v: number): number {
  if (v <= 0) return 100;
  const pow = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * pow >= v) return m * pow;
  return 10 * pow;
}

/**
 * The trade-off chart of one provider and grader: pass rate (Wilson 95% interval as a vertical bar) against mean
 * prompt tokens, one marker shape per strategy, each point labelled with its strategy and rate; the Pareto front
 * (more passes for fewer tokens) drawn as a dashed line through filled markers. Inline SVG, every label escaped.
 * `shapeOf` gives each strategy's index in the run's strategy order. Pure.
 */
export function tradeoffSvg(points: TradeoffPoint[], shapeOf: (renderer: string) => number, caption: string): string {
  const maxX = niceMax(Math.max(...points.map((p) => p.tokens), 1) * 1.05);
  const pw = W - M.l - M.r;
  const ph = H - M.t - M.b;
  const sx = (t: number) => +(M.l + (t / maxX) * pw).toFixed(1);
  const sy = (r: number) => +(M.t + (1 - r) * ph).toFixed(1);
  const out: string[] = [
    `<svg class="tradeoff" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${e(caption)}"><title>${e(caption)}</title>`,
    `<g class="axes" stroke="#999" fill="none"><path d="M${M.l} ${M.t}V${M.t + ph}H${M.l + pw}"/></g>`,
  ];
  for (const r of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(
      `<path d="M${M.l} ${sy(r)}H${M.l + pw}" stroke="#eee"/><text x="${M.l - 4}" y="${sy(r) + 4}" text-anchor="end" font-size="10">${pct(r)}</text>`,
    );
  }
  for (let i = 0; i <= 4; i++) {
    const t = (maxX * i) / 4;
    out.push(`<text x="${sx(t)}" y="${M.t + ph + 14}" text-anchor="middle" font-size="10">${Math.round(t)}</text>`);
  }
  out.push(
    `<text x="${M.l + pw / 2}" y="${H - 4}" text-anchor="middle" font-size="11">mean prompt tokens per case</text>`,
    `<text x="10" y="${M.t + ph / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 10 ${M.t + ph / 2})">pass rate</text>`,
  );
  const front = points.filter((p) => p.pareto).sort((a, b) => a.tokens - b.tokens);
  if (front.length > 1) {
    out.push(
      `<path class="pareto" d="${front.map((p, i) => `${i ? 'L' : 'M'}${sx(p.tokens)} ${sy(p.rate)}`).join('')}" fill="none" stroke="#333" stroke-dasharray="4 3"/>`,
    );
  }
  // Labels in the right margin, placed top to bottom by rate (then tokens) so leader lines cross little; the
  // points keep the order they came in.
  const labelY = new Map<TradeoffPoint, number>();
  const placed: number[] = [];
  for (const p of [...points].sort((a, b) => b.rate - a.rate || a.tokens - b.tokens)) {
    let ly = sy(p.rate) + 4;
    while (placed.some((l) => Math.abs(l - ly) < 12)) ly += 12;
    placed.push(ly);
    labelY.set(p, ly);
  }
  for (const p of points) {
    const x = sx(p.tokens);
    const y = sy(p.rate);
    const ly = labelY.get(p) ?? y + 4;
    const shape = SHAPES[shapeOf(p.renderer) % SHAPES.length] ?? 'circle';
    const desc = `${p.renderer}: ${pct(p.rate)} (${p.pass}/${p.n}, ${pct(p.wilson95[0])}–${pct(p.wilson95[1])}) at ${p.tokens} tokens${p.pareto ? ', on the Pareto front' : ''}`;
    out.push(
      `<g class="pt" data-renderer="${e(p.renderer)}" data-rate="${p.rate}" data-tokens="${p.tokens}" data-pass="${p.pass}" data-n="${p.n}" data-pareto="${p.pareto ? 1 : 0}"><title>${e(desc)}</title>`,
      `<path d="M${x} ${sy(p.wilson95[0])}V${sy(p.wilson95[1])}M${x - 3} ${sy(p.wilson95[0])}H${x + 3}M${x - 3} ${sy(p.wilson95[1])}H${x + 3}" stroke="currentColor" opacity=".6"/>`,
      marker(shape, x, y, p.pareto),
      marker(shape, M.l + pw + 14, ly - 4, p.pareto),
      `<text x="${M.l + pw + 24}" y="${ly}" font-size="10">${e(p.renderer)} ${pct(p.rate)}${p.pareto ? ' (front)' : ''}</text>`,
      `<path d="M${x + 6} ${y}L${M.l + pw + 7} ${ly - 4}" stroke="#bbb" stroke-width=".7"/>`,
      '</g>',
    );
  }
  out.push('</svg>');
  return out.join('');
}
