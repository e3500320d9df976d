import type { ParsedCall } from '../contracts/parse.js';
import type { CatalogDrift } from '../contracts/tool.js';
import { passHatK } from '../util/stats.js';
import { runsWith } from '../util/strategy-providers.js';
import { ConversationTally } from './conversation-tally.js';
import { PresentationTally } from './presentation-tally.js';
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

export interface FailureNote {
  key: string;
  grader: string;
  reason: string;
}

/** A tool call whose result was an error (`isError`): which case, which tool, what the tool said (cut short). */
export interface ToolErrorNote {
  key: string;
  tool: string;
  message: string;
}

/** How much of a tool's error message a note keeps. */
const NOTE_CHARS = 300;

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
 * Unsigned counts by a dense ordinal, in a typed array that doubles as it fills and widens (8, 16, then 32 bits) the
 * first time a value outgrows it. Per-case counts are mostly repeats (1 to a few), so a case costs a byte per count;
 * the widening keeps any count exact however a log was made.
 */
class Counts {
  private a: Uint8Array | Uint16Array | Uint32Array = new Uint8Array(0);
  private max = 0xff;

  get(i: number): number {
    return i < this.a.length ? (this.a[i] as number) : 0;
  }

  set(i: number, v: number): void {
    if (i >= this.a.length || v > this.max) this.resize(i, v);
    this.a[i] = v;
  }

  inc(i: number): void {
    this.set(i, this.get(i) + 1);
  }

  private resize(i: number, v: number): void {
    const old = this.a;
    const length = i < old.length ? old.length : Math.max(i + 1, old.length * 2, 64);
    if (v > 0xffff) this.max = 0xffffffff;
    else if (v > this.max) this.max = 0xffff;
    const next =
      this.max === 0xff
        ? new Uint8Array(length)
        : this.max === 0xffff
          ? new Uint16Array(length)
          : new Uint32Array(length);
    next.set(old);
    this.a = next;
  }
}

/** A cell's per-case counts, by case ordinal (0 for a case the cell has not seen). */
class CellCases {
  readonly trials = new Counts();
  readonly errors = new Counts();
  /** The node of the grader-order trie naming the graders that graded the case here, in the order first seen. */
  readonly graded = new Counts();
  /** By grader ordinal (RunAggregate.graderNames), once the grader grades a case of the cell. */
  readonly pass: (Counts | undefined)[] = [];
  readonly n: (Counts | undefined)[] = [];

  constructor(
    readonly ordinal: number,
    readonly stats: CellStats,
  ) {}
}

/** One grader's counts per case in one cell, by case ordinal: 0 for a case it never graded there. */
export interface CaseCounts {
  pass(caseOrdinal: number): number;
  n(caseOrdinal: number): number;
}

/** A case in a cell, as RunAggregate.casesInRunOrder yields it. */
export interface CaseInCell {
  /** The case's ordinal: shared by every cell, numbered in the order the run first saw each case. */
  ordinal: number;
  /** `suite/case`. */
  caseId: string;
  cell: CellStats;
  /** Per grader that graded the case in this cell, in the order its records first named them: passes and trials. */
  graders: readonly (GraderTally & { grader: string })[];
}

const NO_COUNTS: CaseCounts = { pass: () => 0, n: () => 0 };

/**
 * Folds case records into per-cell tallies as they stream by. Holds counts only (per cell, and per case a
 * pass count per grader for pass^k and comparisons) plus a bounded list of example failures, never
 * transcripts, so memory stays small however long the transcripts are.
 *
 * The per-case counts are kept flat, because a run may have 100,000 cases in each of several cells: every case
 * identity (`suite/case`) gets one ordinal shared by all cells, and each cell keeps its trials, errors and every
 * grader's passes and graded trials in typed arrays indexed by that ordinal (a few bytes per case, where an object
 * per case in a cell cost hundreds). Which graders graded a case, and in what order (the per-case entries of
 * run.json list them so), is one number per case: a node of a small trie of grader orders, one node per distinct
 * order. The order the run first saw each case in each cell is kept too (two numbers), for the snapshot and for
 * sums whose floating-point result depends on their order.
 */
export class RunAggregate {
  readonly cells = new Map<string, CellStats>();
  readonly graderNames: string[] = [];
  readonly failures: FailureNote[] = [];
  readonly errors: FailureNote[] = [];
  /** Suites whose schema cache differed from the live server (the last drift seen per suite). */
  readonly drift = new Map<string, CatalogDrift>();
  /** Why strategies fail: tools confused, per-tool outcomes, tool-search counts (a pure fold of the same records). */
  readonly presentation = new PresentationTally();
  /** The scripted conversations' trials, passes and failure turns per case and cell (docs/multi-turn.md). */
  readonly conversations = new ConversationTally();
  total = 0;
  totalErrors = 0;
  /**
   * Tool calls the agent loop executed, and how many of them returned an error result (`isError`: the tool refused
   * its arguments, or the call named no tool): data the model was shown, not infrastructure errors.
   */
  readonly toolCalls = { calls: 0, errors: 0 };
  /** The first tool errors (up to the notes' bound), in run order. */
  readonly toolErrors: ToolErrorNote[] = [];
  private lastCell: CellCases | undefined;
  private readonly cellCases: CellCases[] = [];
  private readonly casesOfCell = new Map<CellStats, CellCases>();
  private readonly graderOrdinals = new Map<string, number>();
  private readonly caseOrdinals = new Map<string, number>();
  private readonly caseIds: string[] = [];
  private lastCase: { suite: string; case: string; ordinal: number } | undefined;
  /** The (case, cell) pairs in the order first seen: case ordinals and cell ordinals. */
  private readonly seenCase = new Counts();
  private readonly seenCell = new Counts();
  private seen = 0;
  /** The grader-order trie: per node its graders (ordinals, in order) and its children by grader ordinal. */
  private readonly orders: number[][] = [[]];
  private readonly orderNext: number[][] = [[]];

  constructor(
    readonly header: RunHeader,
    private readonly maxNotes = 20,
  ) {
    for (const s of header.strategies) {
      for (const p of header.providers) if (runsWith(s, p.label)) this.cell(s.label, p.label, p.simulated);
    }
  }

  /** Repeats per case as configured (k of pass^k). */
  get repeats(): number {
    return repeatsOf(this.header);
  }

  /** Case identities seen so far; ordinals run from 0 to caseCount − 1. */
  get caseCount(): number {
    return this.caseIds.length;
  }

  /** `suite/case` of a case ordinal. */
  caseId(ordinal: number): string {
    const id = this.caseIds[ordinal];
    if (id === undefined) throw new RangeError(`no case ${ordinal}`);
    return id;
  }

  private cell(renderer: string, provider: string, simulated: boolean): CellCases {
    const key = cellKey(renderer, provider);
    const c = this.cells.get(key);
    if (c) return this.casesOfCell.get(c) as CellCases;
    const stats: CellStats = {
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
    const cases = new CellCases(this.cellCases.length, stats);
    this.cells.set(key, stats);
    this.cellCases.push(cases);
    this.casesOfCell.set(stats, cases);
    return cases;
  }

  private caseOrdinal(suite: string, name: string): number {
    // consecutive records usually share a case (the plan runs a case in every cell in a row): skip its key then
    const last = this.lastCase;
    if (last && last.suite === suite && last.case === name) return last.ordinal;
    const id = `${suite}/${name}`;
    let ordinal = this.caseOrdinals.get(id);
    if (ordinal === undefined) {
      ordinal = this.caseIds.length;
      this.caseOrdinals.set(id, ordinal);
      this.caseIds.push(id);
    }
    this.lastCase = { suite, case: name, ordinal };
    return ordinal;
  }

  /** The trie node reached from `node` by grading with grader `g`: `node` itself when g already graded there. */
  private nextOrder(node: number, g: number): number {
    const children = this.orderNext[node] as number[];
    let to = children[g];
    if (to === undefined) {
      const graders = this.orders[node] as number[];
      if (graders.includes(g)) to = node;
      else {
        to = this.orders.length;
        this.orders.push([...graders, g]);
        this.orderNext.push([]);
      }
      children[g] = to;
    }
    return to;
  }

  add(record: CaseRecord): void {
    // consecutive records usually share a cell: skip building its key again
    const last = this.lastCell;
    const cc =
      last && last.stats.renderer === record.renderer && last.stats.provider === record.provider
        ? last
        : this.cell(record.renderer, record.provider, record.simulated);
    this.lastCell = cc;
    const c = cc.stats;
    const i = this.caseOrdinal(record.suite, record.case);
    if (cc.trials.get(i) === 0) {
      this.seenCase.set(this.seen, i);
      this.seenCell.set(this.seen, cc.ordinal);
      this.seen++;
    }
    cc.trials.inc(i);
    this.conversations.add(record);
    this.total++;
    this.presentation.add(record);
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
      for (const run of turn.executed ?? []) {
        this.toolCalls.calls++;
        if (!run.isError) continue;
        this.toolCalls.errors++;
        if (this.toolErrors.length < this.maxNotes) {
          const message = typeof run.result === 'string' ? run.result.slice(0, NOTE_CHARS) : '';
          this.toolErrors.push({ key: record.key, tool: String(run.tool), message });
        }
      }
    }
    if (record.error) {
      c.errors++;
      cc.errors.inc(i);
      this.totalErrors++;
      if (this.errors.length < this.maxNotes) {
        this.errors.push({ key: record.key, grader: record.error.code, reason: record.error.message });
      }
      return;
    }
    for (const g of record.grades) {
      let gi = this.graderOrdinals.get(g.grader);
      if (gi === undefined) {
        gi = this.graderNames.length;
        this.graderNames.push(g.grader);
        this.graderOrdinals.set(g.grader, gi);
      }
      let t = c.graders.get(g.grader);
      if (!t) {
        t = { pass: 0, n: 0 };
        c.graders.set(g.grader, t);
      }
      t.n++;
      if (g.pass) t.pass++;
      else if (this.failures.length < this.maxNotes)
        this.failures.push({ key: record.key, grader: g.grader, reason: g.reason });
      let n = cc.n[gi];
      let pass = cc.pass[gi];
      if (!n || !pass) {
        n = new Counts();
        pass = new Counts();
        cc.n[gi] = n;
        cc.pass[gi] = pass;
      }
      n.inc(i);
      if (g.pass) pass.inc(i);
      const node = cc.graded.get(i);
      const next = this.nextOrder(node, gi);
      if (next !== node) cc.graded.set(i, next);
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

  /** One grader's per-case counts in one cell (zero everywhere for a cell or grader the run has not seen). */
  caseCounts(renderer: string, provider: string, grader: string): CaseCounts {
    const stats = this.cells.get(cellKey(renderer, provider));
    const gi = this.graderOrdinals.get(grader);
    const cc = stats && this.casesOfCell.get(stats);
    const n = gi === undefined ? undefined : cc?.n[gi];
    const pass = gi === undefined ? undefined : cc?.pass[gi];
    if (!n || !pass) return NO_COUNTS;
    return { pass: (i) => pass.get(i), n: (i) => n.get(i) };
  }

  /** Every case of every cell, in the order the run first saw it there (a case's first record in that cell). */
  *casesInRunOrder(): Generator<CaseInCell> {
    for (let s = 0; s < this.seen; s++) {
      const ordinal = this.seenCase.get(s);
      const cc = this.cellCases[this.seenCell.get(s)] as CellCases;
      const order = this.orders[cc.graded.get(ordinal)] as number[];
      yield {
        ordinal,
        caseId: this.caseIds[ordinal] as string,
        cell: cc.stats,
        graders: order.map((g) => ({
          grader: this.graderNames[g] as string,
          pass: (cc.pass[g] as Counts).get(ordinal),
          n: (cc.n[g] as Counts).get(ordinal),
        })),
      };
    }
  }

  /**
   * τ-bench's pass^k for one cell and grader: the mean over its cases of C(c,k)/C(n,k), i.e. the chance that
   * k trials of a case all pass. With k = repeats it is the share of cases that passed every repeat.
   * Cases with fewer than k graded trials (errors) are left out. Null when no case qualifies.
   */
  passHatK(renderer: string, provider: string, grader: string, k = this.repeats): number | null {
    const stats = this.cells.get(cellKey(renderer, provider));
    const cc = stats && this.casesOfCell.get(stats);
    const gi = this.graderOrdinals.get(grader);
    const n = gi === undefined ? undefined : cc?.n[gi];
    const pass = gi === undefined ? undefined : cc?.pass[gi];
    if (!cc || !n || !pass) return null;
    let sum = 0;
    let count = 0;
    // in run order, as the cases were first seen in the cell: the floating-point sum depends on its order
    for (let s = 0; s < this.seen; s++) {
      if (this.seenCell.get(s) !== cc.ordinal) continue;
      const i = this.seenCase.get(s);
      const ni = n.get(i);
      if (ni === 0 || ni < k) continue;
      sum += passHatK(pass.get(i), ni, k);
      count++;
    }
    return count ? sum / count : null;
  }
}
