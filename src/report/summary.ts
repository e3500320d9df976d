import type { RunAggregate } from './aggregate.js';
import { wilson } from './wilson.js';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The Markdown summary (summary.md, also printed): the renderer × provider matrix per grader. Pure. */
export function renderSummary(agg: RunAggregate, extra: { runDir: string; interrupted: boolean }): string {
  const h = agg.header;
  const graders = agg.graderNames;
  const lines: string[] = [];
  lines.push(`# toolgauge run ${h.runId}`);
  lines.push('');
  const suites = h.suites.map((s) => `${s.name} (${s.cases})`).join(', ');
  lines.push(
    `Suites: ${suites} · cases run: ${agg.total}${extra.interrupted ? ' (interrupted)' : ''} · infrastructure errors: ${agg.totalErrors} · repeats: ${String(h.config.repeats ?? 1)} · seed: ${String(h.config.seed ?? '')}`,
  );
  lines.push('');
  lines.push('Pass rate per grader (passes/graded, Wilson 95% interval). Errors are not failures and are not graded.');
  lines.push('');
  const head = ['renderer', 'provider', ...graders, 'errors', 'prompt tokens'];
  lines.push(`| ${head.join(' | ')} |`);
  lines.push(`|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`);
  for (const c of agg.cells.values()) {
    const cells = graders.map((g) => {
      const t = c.graders.get(g);
      if (!t || t.n === 0) return '–';
      const [lo, hi] = wilson(t.pass, t.n);
      return `${pct(t.pass / t.n)} (${t.pass}/${t.n}, ${pct(lo)}–${pct(hi)})`;
    });
    const tokens = c.cases ? Math.round(c.promptTokens / c.cases) : 0;
    const provider = c.simulated ? `${c.provider} (simulated)` : c.provider;
    lines.push(`| ${[c.renderer, provider, ...cells, `${c.errors}/${c.cases}`, String(tokens)].join(' | ')} |`);
  }
  if (agg.failures.length) {
    lines.push('');
    lines.push(`## First failures (${agg.failures.length} shown)`);
    lines.push('');
    for (const f of agg.failures) lines.push(`- \`${f.key}\` **${f.grader}**: ${oneLine(f.reason)}`);
  }
  if (agg.errors.length) {
    lines.push('');
    lines.push(`## Infrastructure errors (${agg.errors.length} shown)`);
    lines.push('');
    for (const e of agg.errors) lines.push(`- \`${e.key}\` ${e.grader}: ${oneLine(e.reason)}`);
  }
  lines.push('');
  lines.push(`Run log: ${extra.runDir}/run.jsonl`);
  return `${lines.join('\n')}\n`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 197)}…` : flat;
}
