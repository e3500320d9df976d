import type { CaseRecord, RunHeader } from '../contracts/run-log.js';

export interface GraderTally {
  pass: number;
  n: number;
}

export interface CellStats {
  renderer: string;
  provider: string;
  simulated: boolean;
  cases: number;
  errors: number;
  graders: Map<string, GraderTally>;
  promptTokens: number;
  usage: { input: number; output: number; cached: number };
  durationMs: number;
}

export interface FailureNote {
  key: string;
  grader: string;
  reason: string;
}

/**
 * Folds case records into per-cell tallies as they stream by. Holds counts only (and a bounded list of
 * example failures), never transcripts, so memory does not grow with the number of cases.
 */
export class RunAggregate {
  readonly cells = new Map<string, CellStats>();
  readonly graderNames: string[] = [];
  readonly failures: FailureNote[] = [];
  readonly errors: FailureNote[] = [];
  total = 0;
  totalErrors = 0;

  constructor(
    readonly header: RunHeader,
    private readonly maxNotes = 20,
  ) {
    for (const s of header.strategies) {
      for (const p of header.providers) this.cell(s.label, p.label, p.simulated);
    }
  }

  private cell(renderer: string, provider: string, simulated: boolean): CellStats {
    const key = `${renderer}\u0000${provider}`;
    let c = this.cells.get(key);
    if (!c) {
      c = {
        renderer,
        provider,
        simulated,
        cases: 0,
        errors: 0,
        graders: new Map(),
        promptTokens: 0,
        usage: { input: 0, output: 0, cached: 0 },
        durationMs: 0,
      };
      this.cells.set(key, c);
    }
    return c;
  }

  add(record: CaseRecord): void {
    const c = this.cell(record.renderer, record.provider, record.simulated);
    this.total++;
    c.cases++;
    c.durationMs += record.durationMs;
    c.promptTokens += record.promptTokens;
    c.usage.input += record.usage.input;
    c.usage.output += record.usage.output;
    c.usage.cached += record.usage.cached ?? 0;
    if (record.error) {
      c.errors++;
      this.totalErrors++;
      if (this.errors.length < this.maxNotes) {
        this.errors.push({ key: record.key, grader: record.error.code, reason: record.error.message });
      }
      return;
    }
    for (const g of record.grades) {
      if (!this.graderNames.includes(g.grader)) this.graderNames.push(g.grader);
      const t = c.graders.get(g.grader) ?? { pass: 0, n: 0 };
      t.n++;
      if (g.pass) t.pass++;
      else if (this.failures.length < this.maxNotes)
        this.failures.push({ key: record.key, grader: g.grader, reason: g.reason });
      c.graders.set(g.grader, t);
    }
  }

  /** Pass rate of one grader over the whole run (errors excluded). */
  overall(grader: string): GraderTally {
    const out = { pass: 0, n: 0 };
    for (const c of this.cells.values()) {
      const t = c.graders.get(grader);
      if (t) {
        out.pass += t.pass;
        out.n += t.n;
      }
    }
    return out;
  }
}
