import type { Reporter, RunEnd, RunStart } from '../contracts/reporter.js';
import { errorMessage, ToolgaugeError } from '../errors.js';
import type { Where } from '../plugins/plugin-file.js';
import type { RunAggregate } from '../run-log/aggregate.js';
import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import type { CompareResult } from './compare.js';
import { renderRunJson } from './json.js';
import type { GateCheck } from './junit-gate.js';
import { type ReporterEntry, type ResolvedReporters, resolveReporters } from './reporter-registry.js';
import type { BuiltinReporter, BuiltinReporterOptions, ReportEnd } from './reporters/index.js';
import { renderSummary } from './summary.js';

export interface FinishInput {
  /** The aggregate of exactly the records given to `add`. */
  aggregate: RunAggregate;
  /** How the run folder is named in the reports (a display path). */
  displayDir: string;
  interrupted: boolean;
  comparison?: CompareResult | null;
  gate?: { exitCode: number; lines: string[] };
  /** The gate's checks (junit.xml's gate suite); absent when nothing was judged. */
  gateChecks?: readonly GateCheck[];
}

interface Custom {
  name: string;
  reporter: Reporter;
  /** Every hook of one reporter runs after the previous one settled: its hooks never overlap and keep their order. */
  chain: Promise<void>;
  failure?: ToolgaugeError;
}

/**
 * The reporters of one run, fed as cases finish (by the runner, or by one read of run.jsonl). The built-in writers
 * are synchronous and write as records go by; a custom reporter's hooks are queued one after the other, and all of
 * them are awaited by `finish`. A custom reporter that throws stops receiving hooks and fails `finish` with
 * REPORTER_FAILED, after the built-in reports are written.
 */
export class RunReporters {
  private readonly custom: Custom[];
  private readonly builtins: BuiltinReporter[];

  constructor(
    readonly runDir: string,
    private readonly header: RunHeader,
    resolved: ResolvedReporters,
  ) {
    this.builtins = resolved.builtins;
    this.custom = resolved.custom.map((c) => ({ ...c, chain: Promise.resolve() }));
    const start: RunStart = { header, runDir };
    try {
      for (const b of this.builtins) b.onRunStart(start);
    } catch (e) {
      this.discard();
      throw e;
    }
    for (const c of this.custom) this.call(c, 'onRunStart', (r) => r.onRunStart?.(start));
  }

  /** The reporters a config's `reporters` list names (absent: every built-in writer), started. */
  static async open(input: {
    runDir: string;
    header: RunHeader;
    entries: ReporterEntry[] | undefined;
    baseDir: string;
    where: Where;
    options?: BuiltinReporterOptions;
  }): Promise<RunReporters> {
    const resolved = await resolveReporters(input.entries, input.baseDir, input.where, input.options);
    return new RunReporters(input.runDir, input.header, resolved);
  }

  add(record: CaseRecord): void {
    for (const b of this.builtins) b.onCase?.(record);
    for (const c of this.custom) if (c.reporter.onCase) this.call(c, 'onCase', (r) => r.onCase?.(record));
  }

  /** Ends the run for every reporter; returns the text of summary.md (printed by the command). */
  async finish(input: FinishInput): Promise<string> {
    const agg = input.aggregate;
    const summary = renderSummary(agg, {
      runDir: input.displayDir,
      interrupted: input.interrupted,
      ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
      ...(input.gate ? { gateLines: input.gate.lines } : {}),
    });
    const end: RunEnd = {
      header: this.header,
      runDir: this.runDir,
      interrupted: input.interrupted,
      total: agg.total,
      errors: agg.totalErrors,
      cells: renderRunJson(agg, { interrupted: input.interrupted }, { snapshotCases: false }).cells,
      ...(input.gate ? { gate: input.gate } : {}),
    };
    const full: ReportEnd = {
      ...end,
      aggregate: agg,
      displayDir: input.displayDir,
      summary,
      ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
      ...(input.gate && input.gateChecks
        ? { judged: { exitCode: input.gate.exitCode, checks: input.gateChecks } }
        : {}),
    };
    try {
      for (const b of this.builtins) b.onRunEnd(full);
    } finally {
      this.discard();
    }
    for (const c of this.custom) this.call(c, 'onRunEnd', (r) => r.onRunEnd?.(end));
    await Promise.all(this.custom.map((c) => c.chain));
    const failed = this.custom.find((c) => c.failure);
    if (failed?.failure) throw failed.failure;
    return summary;
  }

  /** Removes what the built-in writers left unfinished (a run that failed before its reports). */
  discard(): void {
    for (const b of this.builtins) b.discard?.();
  }

  private call(c: Custom, hook: keyof Reporter, run: (r: Reporter) => unknown): void {
    c.chain = c.chain.then(async () => {
      if (c.failure) return;
      try {
        await run(c.reporter);
      } catch (e) {
        c.failure = new ToolgaugeError('REPORTER_FAILED', `reporter ${c.name}: ${hook} failed: ${errorMessage(e)}`, {
          reporter: c.name,
          hook,
        });
      }
    });
  }
}
