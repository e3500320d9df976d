import { escapeHtml } from '../report/html-escape.js';
import type { Standing } from './race.js';
import type { ProviderTune, TuneResult } from './tune-result.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const W = 560;
const H = 260;
const PAD = 40;

/**
 * tune.html: one self-contained page (no script, no external resource) with, per provider, pass rate against prompt
 * tokens per case for every candidate (the Pareto front joined, the recommendation ringed, each point's interval as
 * a bar), and the standings. Every label and id is escaped with escapeHtml. Pure.
 */
export function tuneHtml(r: TuneResult): string {
  const body = r.providers.map(providerSection).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>toolgauge tune</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}td.n{text-align:right}
svg{border:1px solid #ddd;background:#fafafa}.front{fill:none;stroke:#2a6;stroke-width:1.5}
.pt{fill:#888}.pt.f{fill:#2a6}.pt.r{stroke:#c30;stroke-width:3}.ci{stroke:#bbb}text{font-size:11px}
</style></head><body>
<h1>toolgauge tune</h1>
<p>Grader ${escapeHtml(r.grader)}, objective ${escapeHtml(r.objective)}, seed ${r.seed}; ${r.candidates.length} candidates on ${r.cases} cases. Model calls: ${r.calls.spent} (${r.calls.paid} made, ${r.calls.reused} from the cassettes) against about ${r.calls.grid} for the full grid.${r.interrupted ? ' <strong>Interrupted.</strong>' : ''}</p>
${body}
</body></html>
`;
}

function providerSection(p: ProviderTune): string {
  const rec = p.recommended;
  const rows = p.candidates
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.label)}</td><td>${status(c)}</td><td class="n">${pct(c.rate)} [${pct(c.wilson95[0])}–${pct(c.wilson95[1])}]</td><td class="n">${c.pass}/${c.graded}</td><td class="n">${Math.round(c.tokens)}</td><td class="n">${c.calls}</td></tr>`,
    )
    .join('\n');
  return `<h2>${escapeHtml(p.provider)}${p.simulated ? ' (simulated)' : ''}</h2>
<p>${rec ? `Recommended: <strong>${escapeHtml(rec.label)}</strong>, ${pct(rec.rate)} [${pct(rec.wilson95[0])}–${pct(rec.wilson95[1])}] on ${rec.graded} cases, ${Math.round(rec.tokens)} prompt tokens per case.` : 'No recommendation.'} Calls: ${p.calls} of the grid's ${p.gridCalls}.</p>
${scatter(p)}
<table><tr><th>candidate</th><th>status</th><th>pass rate [95%]</th><th>cases</th><th>prompt tokens / case</th><th>calls</th></tr>
${rows}</table>`;
}

/** Pass rate (y) against prompt tokens per case (x, from zero): a point per candidate, the front joined. */
function scatter(p: ProviderTune): string {
  const shown = p.candidates.filter((c) => c.graded > 0);
  if (shown.length === 0) return '';
  const most = Math.max(1, ...shown.map((c) => c.tokens));
  const x = (t: number) => PAD + (t / most) * (W - 2 * PAD);
  const y = (rate: number) => H - PAD - rate * (H - 2 * PAD);
  const front = shown
    .filter((c) => c.pareto)
    .sort((a, b) => a.tokens - b.tokens)
    .map((c) => `${x(c.tokens).toFixed(1)},${y(c.rate).toFixed(1)}`)
    .join(' ');
  const points = shown
    .map((c) => {
      const cls = `pt${c.pareto ? ' f' : ''}${c.status === 'recommended' ? ' r' : ''}`;
      const cx = x(c.tokens).toFixed(1);
      return `<line class="ci" x1="${cx}" x2="${cx}" y1="${y(c.wilson95[0]).toFixed(1)}" y2="${y(c.wilson95[1]).toFixed(1)}"/><circle class="${cls}" cx="${cx}" cy="${y(c.rate).toFixed(1)}" r="4"><title>${escapeHtml(c.label)}: ${pct(c.rate)}, ${Math.round(c.tokens)} tokens</title></circle>`;
    })
    .join('');
  return `<svg width="${W}" height="${H}" role="img" aria-label="pass rate against prompt tokens">
<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="#999"/><line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" stroke="#999"/>
<text x="${PAD}" y="${H - PAD + 16}">0</text><text x="${W - PAD}" y="${H - PAD + 16}" text-anchor="end">${Math.round(most)} prompt tokens / case</text>
<text x="${PAD - 6}" y="${PAD}" text-anchor="end">100%</text><text x="${PAD - 6}" y="${H - PAD}" text-anchor="end">0%</text>
<polyline class="front" points="${front}"/>${points}</svg>`;
}

function status(c: Standing): string {
  if (c.status === 'recommended') return '<strong>recommended</strong>';
  if (c.status === 'indistinguishable') return 'not told apart';
  const e = c.eliminated!;
  if (e.reason === 'tied') return `tied with ${escapeHtml(e.by)} in round ${e.round}`;
  return `out in round ${e.round} (p ${e.pAdjusted.toPrecision(2)}, ${e.reason === 'worse' ? 'worse than' : 'dominated by'} ${escapeHtml(e.by)})`;
}
