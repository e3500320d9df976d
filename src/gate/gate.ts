import picomatch from 'picomatch';
import type { CompareResult } from '../report/compare.js';
import { fmtP } from '../report/format.js';
import type { GateCheck } from '../report/junit-gate.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import { detectLines } from './detect-lines.js';

export interface CellThreshold {
  grader: string;
  min: number;
  /** Label or glob of the renderer strategies / providers it applies to (default: every cell). */
  renderer?: string;
  provider?: string;
}

export interface GateConfig {
  minPassRate?: Record<string, number>;
  thresholds?: CellThreshold[];
  maxInfraErrorRate: number;
  /** Largest tolerated drop against the baseline, even when significant. */
  maxRegression?: number;
  alpha?: number;
}

export interface GateVerdict {
  /** 0 passed, 1 a threshold failed or a cell regressed, 3 too many infrastructure errors. */
  exitCode: 0 | 1 | 3;
  lines: string[];
  /** Every check made, passed or failed, with its cells (junit.xml lists them: its only failures are theirs). */
  checks: GateCheck[];
}

/**
 * Decides the exit code from the run's tallies, the config's thresholds and (when a baseline exists) the
 * comparison with it. Infrastructure errors are judged first and apart: a flaky API is never a regression.
 * Pure.
 */
export function applyGate(agg: RunAggregate, gate: GateConfig, comparison?: CompareResult | null): GateVerdict {
  const lines: string[] = [];
  const checks: GateCheck[] = [];
  const errorRate = agg.total ? agg.totalErrors / agg.total : 0;
  const infraOk = errorRate <= gate.maxInfraErrorRate;
  const infraLine = `gate: ${agg.totalErrors}/${agg.total} cases hit infrastructure errors (${pct(errorRate)} ${infraOk ? '<=' : '>'} ${pct(gate.maxInfraErrorRate)} allowed)`;
  checks.push({ kind: 'infrastructure', name: 'infrastructure errors', ok: infraOk, line: infraLine });
  if (!infraOk) {
    lines.push(infraLine);
    return { exitCode: 3, lines, checks };
  }
  let failed = false;
  for (const [grader, min] of Object.entries(gate.minPassRate ?? {})) {
    const t = agg.overall(grader);
    if (t.n === 0) {
      lines.push(`gate: ${grader}: no graded cases (threshold ${pct(min)} not checked)`);
      continue;
    }
    const rate = t.pass / t.n;
    const ok = rate >= min;
    failed ||= !ok;
    const line = `gate: ${grader} ${pct(rate)} (${t.pass}/${t.n}) ${ok ? '>=' : '<'} ${pct(min)} ${ok ? 'ok' : 'FAILED'}`;
    lines.push(line);
    checks.push({ kind: 'pass-rate', name: `${grader} >= ${pct(min)} over every cell`, ok, line, grader });
  }
  for (const th of gate.thresholds ?? []) {
    const matchR = th.renderer ? picomatch(th.renderer) : () => true;
    const matchP = th.provider ? picomatch(th.provider) : () => true;
    let matched = 0;
    for (const c of agg.cells.values()) {
      if (!matchR(c.renderer) || !matchP(c.provider)) continue;
      const t = c.graders.get(th.grader);
      if (!t || t.n === 0) continue;
      matched++;
      const rate = t.pass / t.n;
      const ok = rate >= th.min;
      failed ||= !ok;
      const line = `gate: ${th.grader} in ${c.renderer} × ${c.provider} ${pct(rate)} (${t.pass}/${t.n}) ${ok ? '>=' : '<'} ${pct(th.min)} ${ok ? 'ok' : 'FAILED'}`;
      if (!ok) lines.push(line);
      const name = `${th.grader} >= ${pct(th.min)} in ${c.renderer} × ${c.provider}`;
      checks.push({ kind: 'threshold', name, ok, line, grader: th.grader, renderer: c.renderer, provider: c.provider });
    }
    const scope = `${th.renderer ?? '*'} × ${th.provider ?? '*'}`;
    if (!matched) lines.push(`gate: ${th.grader} in ${scope}: no graded cells (threshold ${pct(th.min)} not checked)`);
    else lines.push(`gate: ${th.grader} >= ${pct(th.min)} in ${scope}: checked ${matched} cell(s)`);
  }
  if (comparison === null)
    lines.push('gate: no baseline (regressions not checked; `toolgauge baseline update <run-dir>` creates one)');
  else if (comparison) {
    const regressions = comparison.cells.filter((c) => c.regression);
    failed ||= regressions.length > 0;
    for (const c of comparison.cells) {
      const change = `${pct(rate(c.base))} → ${pct(rate(c.run))} (${signed(c.delta)}, ${c.worse} pass→fail vs ${c.better} fail→pass, p=${fmtP(c.pAdjusted)})`;
      const line = `gate: ${c.regression ? 'REGRESSION ' : 'no regression: '}${c.grader} in ${c.renderer} × ${c.provider}: ${change}`;
      if (c.regression) lines.push(line);
      const { grader, renderer, provider } = c;
      const name = `no regression of ${grader} in ${renderer} × ${provider} against baseline ${comparison.baseRunId}`;
      checks.push({ kind: 'regression', name, ok: !c.regression, line, grader, renderer, provider });
    }
    lines.push(
      `gate: baseline ${comparison.baseRunId}: ${regressions.length} significant regression(s) beyond ${pts(comparison.options.maxRegression)} (paired sign-flip test per case, Holm-corrected alpha ${comparison.options.alpha})`,
    );
    if (comparison.configChanged)
      lines.push(
        "gate: note: the configuration differs from the baseline's (config hash changed), so a change may come from the configuration rather than the model",
      );
    lines.push(...detectLines(comparison));
  }
  lines.push(failed ? 'gate: FAILED' : 'gate: passed');
  return { exitCode: failed ? 1 : 0, lines, checks };
}

const rate = ([pass, n]: [number, number]) => (n ? pass / n : 0);

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function pts(x: number): string {
  return `${(x * 100).toFixed(1)} pts`;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pts`;
}
