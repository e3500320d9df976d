import { pct } from './format.js';
import { escapeHtml as e } from './html-escape.js';
import type { SweepSeries } from './sweeps.js';

const W = 360;
const H = 200;
const M = { l: 40, r: 12, t: 12, b: 34 };

/** Pass rate (Wilson 95% bars) against `x` of each point, joined in the swept order. Inline SVG, labels escaped. */
function curve(series: SweepSeries, grader: string, x: 'value' | 'tokens', caption: string): string {
  const xs = series.points.map((p) => (x === 'value' ? p.value : p.promptTokensMean));
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const pw = W - M.l - M.r;
  const ph = H - M.t - M.b;
  const sx = (v: number) => +(M.l + (hi === lo ? pw / 2 : ((v - lo) / (hi - lo)) * pw)).toFixed(1);
  const sy = (r: number) => +(M.t + (1 - r) * ph).toFixed(1);
  const out = [
    `<svg class="sweep-chart" data-x="${x}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${e(caption)}"><title>${e(caption)}</title>`,
    `<path d="M${M.l} ${M.t}V${M.t + ph}H${M.l + pw}" stroke="#999" fill="none"/>`,
  ];
  for (const r of [0, 0.5, 1]) {
    out.push(
      `<path d="M${M.l} ${sy(r)}H${M.l + pw}" stroke="#eee"/><text x="${M.l - 4}" y="${sy(r) + 4}" text-anchor="end" font-size="10">${pct(r)}</text>`,
    );
  }
  for (const v of [...new Set(xs)]) {
    out.push(`<text x="${sx(v)}" y="${M.t + ph + 14}" text-anchor="middle" font-size="10">${v}</text>`);
  }
  out.push(
    `<text x="${M.l + pw / 2}" y="${H - 4}" text-anchor="middle" font-size="11">${e(x === 'value' ? series.field : 'mean prompt tokens per case')}</text>`,
  );
  const pts = series.points.map((p, i) => ({ p, t: p.graders[grader], x: sx(xs[i] as number) }));
  const line = pts.filter((q) => q.t && q.t.n > 0);
  if (line.length > 1) {
    out.push(
      `<path d="${line.map((q, i) => `${i ? 'L' : 'M'}${q.x} ${sy(q.t!.rate)}`).join('')}" fill="none" stroke="currentColor" stroke-width="1.4"/>`,
    );
  }
  for (const { p, t, x: px } of pts) {
    if (!t || t.n === 0) continue;
    const y = sy(t.rate);
    out.push(
      `<g class="sweep-pt" data-strategy="${e(p.strategy)}" data-value="${p.value}" data-tokens="${p.promptTokensMean}" data-pass="${t.pass}" data-n="${t.n}"><title>${e(`${p.strategy}: ${pct(t.rate)} (${t.pass}/${t.n}, ${pct(t.wilson95[0])}–${pct(t.wilson95[1])}) at ${p.promptTokensMean} tokens`)}</title>`,
      `<path d="M${px} ${sy(t.wilson95[0])}V${sy(t.wilson95[1])}M${px - 3} ${sy(t.wilson95[0])}H${px + 3}M${px - 3} ${sy(t.wilson95[1])}H${px + 3}" stroke="currentColor" opacity=".6"/>`,
      `<circle cx="${px}" cy="${y}" r="4" fill="currentColor"/></g>`,
    );
  }
  out.push('</svg>');
  return out.join('');
}

/**
 * The sweeps: per provider (never pooled) and curve, the main grader's pass rate with Wilson 95% intervals against
 * the swept value and against mean prompt tokens, and the numbers in a table. Pure.
 */
export function sweepsSection(series: SweepSeries[], graders: string[]): string {
  if (series.length === 0) return '';
  const grader = graders.includes('correct-arguments') ? 'correct-arguments' : (graders[0] ?? '');
  const providers = [...new Map(series.map((s) => [s.provider, s.simulated])).entries()];
  const blocks = providers.map(([p, sim]) => {
    const curves = series
      .filter((s) => s.provider === p)
      .map((s) => {
        const held = Object.entries(s.held).map(([f, v]) => `${f}=${v}`);
        const name = `${s.renderer} @ ${s.variant}${held.length ? ` (${held.join(', ')})` : ''}`;
        const caption = `${grader} for ${p}, ${name}: pass rate against`;
        const rows = s.points
          .map((pt) => {
            const t = pt.graders[grader];
            return `<tr><td>${pt.value}</td><td>${t?.n ? `${pct(t.rate)} <small>(${t.pass}/${t.n}, ${pct(t.wilson95[0])}–${pct(t.wilson95[1])})</small>` : '–'}</td><td>${pt.promptTokensMean}</td></tr>`;
          })
          .join('');
        return `<div class="sweep" data-renderer="${e(s.renderer)}" data-variant="${e(s.variant)}" data-field="${e(s.field)}"><h4>${e(name)}</h4>${curve(s, grader, 'value', `${caption} ${s.field}`)}${curve(s, grader, 'tokens', `${caption} mean prompt tokens`)}<table class="sweep-table"><tr><th>${e(s.field)}</th><th>${e(grader)}</th><th>prompt tokens</th></tr>${rows}</table></div>`;
      });
    return `<div class="provider" data-provider="${e(p)}"><h3>${e(p)}${sim ? ' <span class="sim">(simulated)</span>' : ''}</h3>${curves.join('')}</div>`;
  });
  return [
    '<section id="sweeps"><h2>Sweeps</h2>',
    `<p class="muted">${e(grader)} pass rate (bars: Wilson 95% intervals) at each value of a swept variant field, and against the mean prompt tokens it costs. One curve per renderer and variant; providers are not pooled.</p>`,
    `<div class="providers">${blocks.join('')}</div>`,
    '</section>',
  ].join('\n');
}
