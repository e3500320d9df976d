import type { RunAggregate } from '../report/aggregate.js';

export interface GateConfig {
  minPassRate?: Record<string, number>;
  maxInfraErrorRate: number;
}

export interface GateVerdict {
  /** 0 passed, 1 a threshold failed, 3 too many infrastructure errors. */
  exitCode: 0 | 1 | 3;
  lines: string[];
}

/** Decides the exit code from the run's tallies and the config's thresholds. Pure. */
export function applyGate(agg: RunAggregate, gate: GateConfig): GateVerdict {
  const lines: string[] = [];
  const errorRate = agg.total ? agg.totalErrors / agg.total : 0;
  if (errorRate > gate.maxInfraErrorRate) {
    lines.push(
      `gate: ${agg.totalErrors}/${agg.total} cases hit infrastructure errors (${pct(errorRate)} > ${pct(gate.maxInfraErrorRate)} allowed)`,
    );
    return { exitCode: 3, lines };
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
    lines.push(
      `gate: ${grader} ${pct(rate)} (${t.pass}/${t.n}) ${ok ? '>=' : '<'} ${pct(min)} ${ok ? 'ok' : 'FAILED'}`,
    );
  }
  lines.push(failed ? 'gate: FAILED' : 'gate: passed');
  return { exitCode: failed ? 1 : 0, lines };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}
