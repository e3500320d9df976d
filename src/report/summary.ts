import type { CellStats, RunAggregate } from '../run-log/aggregate.js';
import type { CompareResult } from './compare.js';
import { fmtP, pct, rateText, signedPts } from './format.js';
import { mdCode, mdText } from './markdown-text.js';
import { conversationsMarkdown } from './summary-conversations.js';
import { comparisonNotes, flakyMarkdown } from './summary-gate.js';
import { presentationMarkdown } from './summary-presentation.js';
import { strategiesMarkdown } from './summary-strategies.js';
import { wilson } from './wilson.js';

export interface SummaryExtra {
  runDir: string;
  interrupted: boolean;
  /** The comparison with the baseline; null = no baseline; undefined = not compared. */
  comparison?: CompareResult | null;
  /** The gate's verdict lines, shown at the top. */
  gateLines?: string[];
}

const label = (c: CellStats) => (c.simulated ? `${c.provider} (simulated)` : c.provider);

/**
 * The Markdown summary (summary.md, PR comments, $GITHUB_STEP_SUMMARY): regressions against the baseline
 * first, then the renderer × provider overview, then one renderer × provider matrix per grader with Wilson
 * intervals (and pass^k with repeats). Pure.
 */
export function renderSummary(agg: RunAggregate, extra: SummaryExtra): string {
  const graders = agg.graderNames;
  const k = agg.repeats;
  const lines = summaryHead(agg, extra);
  const renderers = [...new Set([...agg.cells.values()].map((c) => c.renderer))];
  const providers = [...new Map([...agg.cells.values()].map((c) => [c.provider, label(c)])).entries()];
  for (const g of graders) {
    lines.push('', `## ${mdText(g)}`, '');
    if (k > 1)
      lines.push(`pass@1 (mean over ${k} repeats) [Wilson 95%] · pass^${k} (every repeat passes, as in τ-bench)`, '');
    lines.push(`| renderer \\ provider | ${providers.map(([, l]) => mdText(l)).join(' | ')} |`);
    lines.push(`|---|${providers.map(() => '---:').join('|')}|`);
    for (const r of renderers) {
      const row = providers.map(([p]) => {
        const t = agg.cells.get(`${r}|${p}`)?.graders.get(g);
        if (!t || t.n === 0) return '–';
        const [lo, hi] = wilson(t.pass, t.n);
        let text = `${pct(t.pass / t.n)} [${pct(lo)}–${pct(hi)}]`;
        if (k > 1) {
          const hk = agg.passHatK(r, p, g, k);
          text += ` · ^${k} ${hk === null ? '–' : pct(hk)}`;
        }
        return text;
      });
      lines.push(`| ${mdText(r)} | ${row.join(' | ')} |`);
    }
  }
  lines.push(...strategiesMarkdown(agg));
  lines.push(...presentationMarkdown(agg));
  lines.push(...conversationsMarkdown(agg));
  lines.push(...callShapesSection(agg));
  lines.push(...flakyMarkdown(agg));
  if (agg.failures.length) {
    lines.push('');
    lines.push(`## First failures (${agg.failures.length} shown)`);
    lines.push('');
    for (const f of agg.failures) lines.push(`- ${mdCode(f.key)} **${mdText(f.grader)}**: ${mdText(f.reason)}`);
  }
  lines.push(...toolErrorsSection(agg));
  if (agg.errors.length) {
    lines.push('');
    lines.push(`## Infrastructure errors (${agg.errors.length} shown)`);
    lines.push('');
    for (const e of agg.errors) lines.push(`- ${mdCode(e.key)} ${mdText(e.grader)}: ${mdText(e.reason)}`);
  }
  lines.push('', runLogLine(extra));
  return `${lines.join('\n')}\n`;
}

/**
 * The summary `-q` prints: the verdict (with the comparison against the baseline), the renderer × provider matrix and
 * the first different infrastructure errors, without the per-grader matrices, strategies, call shapes and first
 * failures that summary.md goes on with.
 */
export function renderBriefSummary(agg: RunAggregate, extra: SummaryExtra): string {
  return `${[...summaryHead(agg, extra), ...briefInfraErrors(agg), '', runLogLine(extra)].join('\n')}\n`;
}

/** How many different infrastructure errors the brief summary quotes. */
const BRIEF_ERRORS = 3;

/**
 * The first few different infrastructure errors, for the brief summary: without them a run whose every case erred
 * (a wrong port, a refused key) says how many but not why.
 */
function briefInfraErrors(agg: RunAggregate): string[] {
  if (agg.totalErrors === 0) return [];
  const seen = new Set<string>();
  const shown: string[] = [];
  for (const e of agg.errors) {
    const what = `${e.grader}: ${e.reason}`;
    if (seen.has(what)) continue;
    seen.add(what);
    shown.push(`- ${mdCode(e.key)} ${mdText(e.grader)}: ${mdText(e.reason)}`);
    if (shown.length === BRIEF_ERRORS) break;
  }
  return [
    '',
    `## Infrastructure errors (${agg.totalErrors}; the first different ones, all in summary.md)`,
    '',
    ...shown,
  ];
}

function runLogLine(extra: SummaryExtra): string {
  const dir = mdText(extra.runDir, 1000);
  return `Run log: ${dir}/run.jsonl · report: ${dir}/report.html`;
}

/** The title, the run's counts, the verdict, regressions against the baseline, drift, the matrix, the tool errors. */
function summaryHead(agg: RunAggregate, extra: SummaryExtra): string[] {
  const h = agg.header;
  const graders = agg.graderNames;
  const lines: string[] = [];
  lines.push(`# toolgauge run ${mdText(h.runId)}`);
  lines.push('');
  const suites = h.suites.map((s) => `${mdText(s.name)} (${s.cases})`).join(', ');
  lines.push(
    `Suites: ${suites} · cases run: ${agg.total}${extra.interrupted ? ' (interrupted)' : ''}${h.missingShards?.length ? ` (partial: shard(s) ${mdText(h.missingShards.join(', '))} missing)` : ''} · infrastructure errors: ${agg.totalErrors} · repeats: ${mdText(String(h.config.repeats ?? 1))}${h.config.seed === undefined ? '' : ` · seed: ${mdText(String(h.config.seed))}`}`,
  );
  if (extra.gateLines?.length) {
    const verdict = extra.gateLines[extra.gateLines.length - 1] ?? '';
    lines.push('', `**${mdText(verdict)}**`);
  }
  if (extra.comparison === null) lines.push('', 'No baseline: regressions not checked.');
  else if (extra.comparison) {
    const c = extra.comparison;
    const regressions = c.cells.filter((x) => x.regression);
    lines.push('', `## Regressions against baseline ${mdText(c.baseRunId)} (${regressions.length})`, '');
    if (!regressions.length) lines.push('None (noise-level changes are listed in compare.md).');
    for (const r of regressions) {
      lines.push(
        `- **${mdText(r.grader)}** in ${mdText(r.renderer)} × ${mdText(r.provider)}: ${pct(r.base[0] / r.base[1])} → ${pct(r.run[0] / r.run[1])} (${signedPts(r.delta)}, ${r.worse} pass→fail vs ${r.better} fail→pass, p=${fmtP(r.pAdjusted)})`,
      );
    }
    const worse = c.flips.filter((f) => f.from === 'pass' && f.to !== 'pass').length;
    const better = c.flips.filter((f) => f.from !== 'pass' && f.to === 'pass').length;
    lines.push(
      '',
      `Case flips: ${worse} pass→fail, ${better} fail→pass · cases added ${c.added.length}, removed ${c.removed.length}.`,
    );
    lines.push(...comparisonNotes(c));
  }
  for (const [suite, d] of agg.drift) {
    const parts = [...d.added.map((t) => `+${t}`), ...d.removed.map((t) => `-${t}`), ...d.changed.map((t) => `~${t}`)];
    lines.push(
      '',
      `**Schema cache drift** in suite ${mdText(suite)}: the cache differs from the live server (${mdCode(parts.join(', '))}); run \`toolgauge schemas refresh\`.`,
    );
  }
  lines.push('');
  lines.push('Pass rate per grader (passes/graded, Wilson 95% interval). Errors are not failures and are not graded.');
  lines.push('');
  const head = ['renderer', 'provider', ...graders, 'errors', 'prompt tokens'];
  lines.push(`| ${head.map((x) => mdText(x)).join(' | ')} |`);
  lines.push(`|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`);
  for (const c of agg.cells.values()) {
    const cells = graders.map((g) => {
      const t = c.graders.get(g);
      if (!t || t.n === 0) return '–';
      return rateText(t.pass, t.n, wilson(t.pass, t.n));
    });
    const tokens = c.cases ? Math.round(c.promptTokens / c.cases) : 0;
    lines.push(
      `| ${[mdText(c.renderer), mdText(label(c)), ...cells, `${c.errors}/${c.cases}`, String(tokens)].join(' | ')} |`,
    );
  }
  const { calls, errors } = agg.toolCalls;
  if (calls > 0) {
    lines.push(
      '',
      `${errors} of ${calls} tool calls returned errors (results the tool marked \`isError\`, shown to the model: data, not infrastructure errors).`,
    );
  }
  return lines;
}

/** The first tool calls that returned errors: case, tool and the tool's message, each as untrusted text. */
function toolErrorsSection(agg: RunAggregate): string[] {
  if (agg.toolErrors.length === 0) return [];
  const shown = agg.toolErrors.slice(0, TOOL_ERRORS_SHOWN);
  const lines = ['', `## First tool errors (${shown.length} of ${agg.toolCalls.errors})`, ''];
  for (const e of shown) lines.push(`- ${mdCode(e.key)} ${mdCode(e.tool)}: ${mdCode(e.message)}`);
  return lines;
}

/** How many tool errors summary.md lists. */
const TOOL_ERRORS_SHOWN = 5;

/**
 * Per cell, how the replies wrote their calls, when any cell has calls outside its requested protocol: the number a
 * team needs to see that a model answers in its own format (its server's tool parser is off, or the prompt asks for
 * a shape the model was not trained on). Empty when every call was in the protocol asked for.
 */
function callShapesSection(agg: RunAggregate): string[] {
  const cells = [...agg.cells.values()].filter((c) => c.shapes.size > 0);
  const off = (c: CellStats) => [...c.shapes.keys()].some((s) => !c.protocols.has(s));
  if (!cells.some(off)) return [];
  const lines = [
    '',
    '## Call shapes',
    '',
    'How the replies wrote their calls. A shape other than the protocol asked for is a call that a strict detector (and most agents) miss.',
    '',
    '| renderer | provider | protocol | calls by shape |',
    '|---|---|---|---|',
  ];
  for (const c of cells) {
    const shapes = [...c.shapes].sort((a, b) => b[1] - a[1]).map(([s, n]) => `${s} ${n}`);
    lines.push(
      `| ${[mdText(c.renderer), mdText(label(c)), mdText([...c.protocols].join(', ')), mdText(shapes.join(' · '))].join(' | ')} |`,
    );
  }
  return lines;
}
