import type { ParsedCall } from '../contracts/parse.js';
import type { CatalogDrift } from '../contracts/tool.js';
import { passHatK } from '../report/stats.js';
import type { CaseRecord, RunHeader } from './schema.js';

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
  usage: { input: number; output: number; cached: number; cacheWrite: number };
  durationMs: number;
  /**
   * Calls found in the cell's replies, by how they were written: the requested protocol, or another shape (a model
   * family's own format, a fence, repaired arguments) that a strict detector misses. See callShape.
   */
  shapes: Map<string, number>;
  /** The protocols the cell's requests asked for (one per renderer, in practice). */
  protocols: Set<string>;
}

/** One case in one cell, over its repeats: pass counts per grader. A few bytes per case. */
export interface CaseTally {
  suite: string;
  case: string;
  renderer: string;
  provider: string;
  trials: number;
  errors: number;
  graders: Record<string, GraderTally>;
}

export interface FailureNote {
  key: string;
  grader: string;
  reason: string;
}

/**
 * How a call was written, for the call-shapes tally: the protocol's name when a strict detector for the requested
 * protocol accepts it; else its shape, with the fence and the shape inside it for a wrapped call
 * (`fenced ```tool_call: xml-tags`), and `, repaired` when its arguments only parsed after repair.
 */
export function callShape(call: ParsedCall, protocol: string): string {
  if (call.via === protocol && !call.repaired) return protocol;
  const base =
    call.via === 'fenced' || call.via === 'inline-code'
      ? `${call.via === 'fenced' ? `fenced \`\`\`${call.fence ?? ''}` : 'inline code'}: ${call.inner ?? '?'}`
      : call.via;
  return call.repaired ? `${base}, repaired` : base;
}

/** `suite/case|renderer|provider`: a case in a cell, the unit that baselines and comparisons pair on. */
export function caseCellKey(r: { suite: string; case: string; renderer: string; provider: string }): string {
  return `${r.suite}/${r.case}|${r.renderer}|${r.provider}`;
}

export function cellKey(renderer: string, provider: string): string {
  return `${renderer}|${provider}`;
}

/** Repeats per case a run was configured with (k of pass^k); 1 when unset. */
export function repeatsOf(header: RunHeader): number {
  const k = Number(header.config.repeats ?? 1);
  return Number.isInteger(k) && k > 0 ? k : 1;
}

/**
 * Folds case records into per-cell tallies as they stream by. Holds counts only (per cell, and per case a
 * pass count per grader for pass^k and comparisons) plus a bounded list of example failures, never
 * transcripts, so memory stays small however long the transcripts are.
 */
export class RunAggregate {
  readonly cells = new Map<string, CellStats>();
  readonly caseTallies = new Map<string, CaseTally>();
  readonly graderNames: string[] = [];
  readonly failures: FailureNote[] = [];
  readonly errors: FailureNote[] = [];
  /** Suites whose schema cache differed from the live server (the last drift seen per suite). */
  readonly drift = new Map<string, CatalogDrift>();
  total = 0;
  totalErrors = 0;
  private lastCell: CellStats | undefined;

  constructor(
    readonly header: RunHeader,
    private readonly maxNotes = 20,
  ) {
    for (const s of header.strategies) {
      for (const p of header.providers) this.cell(s.label, p.label, p.simulated);
    }
  }

  /** Repeats per case as configured (k of pass^k). */
  get repeats(): number {
    return repeatsOf(this.header);
  }

  private cell(renderer: string, provider: string, simulated: boolean): CellStats {
    const key = cellKey(renderer, provider);
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
        usage: { input: 0, output: 0, cached: 0, cacheWrite: 0 },
        durationMs: 0,
        shapes: new Map(),
        protocols: new Set(),
      };
      this.cells.set(key, c);
    }
    return c;
  }

  add(record: CaseRecord): void {
    // consecutive records usually share a cell: skip building its key again
    const last = this.lastCell;
    const c =
      last && last.renderer === record.renderer && last.provider === record.provider
        ? last
        : this.cell(record.renderer, record.provider, record.simulated);
    this.lastCell = c;
    const ck = caseCellKey(record);
    let ct = this.caseTallies.get(ck);
    if (!ct) {
      ct = {
        suite: record.suite,
        case: record.case,
        renderer: record.renderer,
        provider: record.provider,
        trials: 0,
        errors: 0,
        graders: {},
      };
      this.caseTallies.set(ck, ct);
    }
    ct.trials++;
    this.total++;
    c.cases++;
    c.durationMs += record.durationMs;
    c.promptTokens += record.promptTokens;
    c.usage.input += record.usage.input;
    c.usage.output += record.usage.output;
    c.usage.cached += record.usage.cached ?? 0;
    c.usage.cacheWrite += record.usage.cacheWrite ?? 0;
    if (record.catalogDrift) this.drift.set(record.suite, record.catalogDrift);
    c.protocols.add(record.protocol);
    // (a log written by hand or by an older version may lack parts of the transcript)
    for (const turn of record.transcript?.turns ?? []) {
      for (const call of turn.parse?.calls ?? []) {
        const shape = callShape(call, record.protocol);
        c.shapes.set(shape, (c.shapes.get(shape) ?? 0) + 1);
      }
    }
    if (record.error) {
      c.errors++;
      ct.errors++;
      this.totalErrors++;
      if (this.errors.length < this.maxNotes) {
        this.errors.push({ key: record.key, grader: record.error.code, reason: record.error.message });
      }
      return;
    }
    for (const g of record.grades) {
      let t = c.graders.get(g.grader);
      if (!t) {
        if (!this.graderNames.includes(g.grader)) this.graderNames.push(g.grader);
        t = { pass: 0, n: 0 };
        c.graders.set(g.grader, t);
      }
      t.n++;
      if (g.pass) t.pass++;
      else if (this.failures.length < this.maxNotes)
        this.failures.push({ key: record.key, grader: g.grader, reason: g.reason });
      let ctg = ct.graders[g.grader];
      if (!ctg) {
        ctg = { pass: 0, n: 0 };
        ct.graders[g.grader] = ctg;
      }
      ctg.n++;
      if (g.pass) ctg.pass++;
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

  /**
   * τ-bench's pass^k for one cell and grader: the mean over its cases of C(c,k)/C(n,k), i.e. the chance that
   * k trials of a case all pass. With k = repeats it is the share of cases that passed every repeat.
   * Cases with fewer than k graded trials (errors) are left out. Null when no case qualifies.
   */
  passHatK(renderer: string, provider: string, grader: string, k = this.repeats): number | null {
    let sum = 0;
    let count = 0;
    for (const t of this.caseTallies.values()) {
      if (t.renderer !== renderer || t.provider !== provider) continue;
      const g = t.graders[grader];
      if (!g || g.n < k) continue;
      sum += passHatK(g.pass, g.n, k);
      count++;
    }
    return count ? sum / count : null;
  }
}
