import { mdCode, mdText } from '../report/markdown-text.js';
import { visible } from '../util/visible-text.js';
import type { Standing } from './race.js';
import type { ProviderTune, TuneResult } from './tune-result.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const interval = ([lo, hi]: [number, number]) => `${pct(lo)}–${pct(hi)}`;
const pValue = (p: number) => (p < 0.0001 ? '< 0.0001' : p.toFixed(4));
const count = (n: number) => Math.round(n).toLocaleString('en-US');

const STOPS: Record<string, string> = {
  'one-left': 'one candidate left',
  indistinguishable: 'the candidates left are within the margin of the leader',
  'all-cases': 'every case was run',
  budget: 'the budget was spent',
  interrupted: 'interrupted (resume with --resume)',
};

/**
 * tune.md: per provider the recommendation with its interval, the Pareto front, every candidate's standing, the
 * rounds and their eliminations with p-values, calls against the grid's; then the config snippet. Every label, id and
 * name comes from a space file, a suite or a provider, so it goes through mdText (tables) or mdCode; the snippet sits
 * in a fence longer than any backtick run in it. Pure.
 */
export function tuneMarkdown(r: TuneResult): string {
  const out: string[] = [];
  out.push('# toolgauge tune', '');
  out.push(
    `Grader ${mdCode(r.grader)}, objective ${mdCode(r.objective)}, seed ${r.seed}, alpha ${r.alpha} (Holm per round), margin ${pct(r.margin)}; ` +
      `${r.candidates.length} candidates on ${r.cases} cases (${r.suites.map((s) => `${mdText(s.name)}: ${s.gradable} of ${s.cases}`).join(', ')}).`,
  );
  out.push('');
  out.push(
    `Model calls: **${count(r.calls.spent)}** (${count(r.calls.paid)} made now, ${count(r.calls.reused)} answered from the cassettes) against about ${count(r.calls.grid)} for the full grid (${r.calls.grid ? pct(r.calls.spent / r.calls.grid) : '—'}).` +
      (r.budget.spent ? ' The race stopped when the budget was spent.' : '') +
      (r.interrupted ? ' **Interrupted**: resume with `toolgauge tune --resume` on this folder.' : ''),
  );
  out.push('');
  for (const p of r.providers) out.push(...providerSection(p));
  if (r.snippet) {
    out.push(
      '## Config snippet',
      '',
      'Paste into toolgauge.config.yaml to run each provider with its recommended strategy:',
      '',
    );
    out.push(...fenced(r.snippet, 'yaml'), '');
  }
  return `${out.join('\n')}\n`;
}

function providerSection(p: ProviderTune): string[] {
  const out = [`## ${mdText(p.provider)}${p.simulated ? ' (simulated)' : ''}`, ''];
  const rec = p.recommended;
  if (rec) {
    out.push(
      `**Recommended: ${mdText(rec.label)}**: ${pct(rec.rate)} [${interval(rec.wilson95)}] (${rec.pass}/${rec.graded} cases, Wilson 95%), ${count(rec.tokens)} prompt tokens per case.`,
    );
  } else {
    out.push('No recommendation: no round was judged.');
  }
  out.push('');
  out.push(
    `Stopped: ${STOPS[p.stopReason ?? ''] ?? 'not started'}. Calls: ${count(p.calls)} of the grid's ${count(p.gridCalls)} (${p.gridCalls ? pct(p.calls / p.gridCalls) : '—'}).`,
  );
  out.push('');
  if (p.pareto.length)
    out.push(
      `Pareto front (pass rate against prompt tokens, fewest tokens first): ${p.pareto.map((l) => mdText(l)).join(' → ')}.`,
      '',
    );
  out.push(
    '| candidate | status | pass rate [95%] | cases | prompt tokens / case | calls |',
    '|---|---|---:|---:|---:|---:|',
  );
  const order = [...p.candidates].sort((a, b) => rank(a) - rank(b) || b.rate - a.rate || a.tokens - b.tokens);
  for (const c of order) {
    out.push(
      `| ${mdText(c.label)}${c.pareto ? ' ◆' : ''} | ${status(c)} | ${pct(c.rate)} [${interval(c.wilson95)}] | ${c.pass}/${c.graded} | ${count(c.tokens)} | ${count(c.calls)} |`,
    );
  }
  out.push('', '◆ on the Pareto front.', '');
  out.push(
    '| round | cases (new) | candidates | leader | eliminated (p, Holm-adjusted) | calls |',
    '|---:|---:|---:|---|---|---:|',
  );
  for (const round of p.rounds) {
    const gone = round.eliminated.length
      ? round.eliminated
          .map((e) =>
            e.reason === 'tied'
              ? `${mdText(e.candidate)} tied with the cheaper ${mdText(e.by)} on every case`
              : `${mdText(e.candidate)} ${e.reason === 'worse' ? 'worse than' : 'dominated by'} ${mdText(e.by)} (${e.onlyOther} vs ${e.onlyThis} cases, p ${pValue(e.pAdjusted)})`,
          )
          .join('; ')
      : '—';
    out.push(
      `| ${round.round} | ${round.cases} (${round.newCases}) | ${round.candidates} | ${mdText(round.leader)} | ${gone} | ${count(round.calls)} |`,
    );
  }
  out.push('');
  return out;
}

function rank(c: Standing): number {
  return c.status === 'recommended' ? 0 : c.status === 'indistinguishable' ? 1 : 2 + (100 - (c.eliminated?.round ?? 0));
}

function status(c: Standing): string {
  if (c.status === 'recommended') return '**recommended**';
  if (c.status === 'indistinguishable') return 'not told apart';
  const e = c.eliminated!;
  if (e.reason === 'tied') return `tied with ${mdText(e.by)} in round ${e.round}, costlier`;
  return `out in round ${e.round} (p ${pValue(e.pAdjusted)})`;
}

/** A fenced code block no line of `text` can close: the fence is longer than any backtick run in it. */
function fenced(text: string, lang: string): string[] {
  const body = visible(text).replace(/\n$/, '');
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${lang}`, body, fence];
}
