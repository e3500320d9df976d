import type { CaseRecord } from './schema.js';

/** What the model did about expected calls of one tool in one cell (correct-arguments' selections, counted). */
export interface ToolTally {
  tool: string;
  /** Expected calls of the tool graded. */
  expected: number;
  /** Right tool and right arguments. */
  right: number;
  wrongArguments: number;
  otherTool: number;
  distractor: number;
  hallucinated: number;
  noCall: number;
}

/** One wrong-tool choice (a tool taken for another) and how often it was made in a cell. */
export interface Confusion {
  expected: string;
  called: string;
  how: 'other-tool' | 'distractor' | 'hallucinated';
  count: number;
  /** The two descriptions as the model read them, the first time the confusion was seen. */
  descriptions?: { expected: string; called: string };
}

/** Tool search in one cell: searches, the expected tools found within k, and what the searching cost. */
export interface SearchTally {
  /** Cases the tool-search grader graded. */
  cases: number;
  searches: number;
  /** Turns whose reply held searches only. */
  searchTurns: number;
  /** Cases whose every expected tool a search found (or was eager). */
  found: number;
}

/** A cell's tallies: per expected tool, the confusions, search, and turns and provider input tokens per case. */
export interface PresentationCell {
  renderer: string;
  provider: string;
  simulated: boolean;
  tools: Map<string, ToolTally>;
  confusions: Map<string, Confusion>;
  search: SearchTally;
  /** Graded cases (errors aside), their turns and provider-reported input tokens, summed. */
  cases: number;
  turns: number;
  inputTokens: number;
}

type Selection = {
  expected: string;
  called: string | null;
  how: string;
  descriptions?: { expected: string; called: string };
};

const HOW_FIELD: Record<string, keyof ToolTally | undefined> = {
  right: 'right',
  'wrong-arguments': 'wrongArguments',
  'other-tool': 'otherTool',
  distractor: 'distractor',
  hallucinated: 'hallucinated',
  'no-call': 'noCall',
};

function isSelection(v: unknown): v is Selection {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return (
    typeof s.expected === 'string' &&
    (typeof s.called === 'string' || s.called === null) &&
    typeof s.how === 'string' &&
    HOW_FIELD[s.how] !== undefined
  );
}

function isDescriptions(v: unknown): v is { expected: string; called: string } {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Record<string, unknown>;
  return typeof d.expected === 'string' && typeof d.called === 'string';
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * "Why a strategy fails", folded from case records as they stream by (RunAggregate feeds it): per cell, for each
 * expected tool, how often it was called right, with wrong arguments, replaced by another tool, a distractor or a
 * hallucination, or not at all (correct-arguments' `selections`); each wrong-tool pair with its count and the two
 * descriptions; tool-search counts (the tool-search grader's data); turns and input tokens per case. Counts only,
 * bounded by the tools a run expects and confuses, never by its cases. Errored records are left out, as graders do.
 */
export class PresentationTally {
  readonly cells = new Map<string, PresentationCell>();

  add(record: CaseRecord): void {
    if (record.error) return;
    const key = `${record.renderer}|${record.provider}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = {
        renderer: record.renderer,
        provider: record.provider,
        simulated: record.simulated,
        tools: new Map(),
        confusions: new Map(),
        search: { cases: 0, searches: 0, searchTurns: 0, found: 0 },
        cases: 0,
        turns: 0,
        inputTokens: 0,
      };
      this.cells.set(key, cell);
    }
    cell.cases++;
    cell.turns += record.transcript?.turns?.length ?? 0;
    cell.inputTokens += record.usage.input;
    for (const g of record.grades) {
      if (g.grader === 'correct-arguments') {
        this.addSelections(cell, g.data?.selections);
        // a conversation's grade holds each user message's own (src/graders/grade-case.ts)
        const turns = g.data?.turns;
        if (Array.isArray(turns))
          for (const t of turns) if (isObject(t)) this.addSelections(cell, dataOf(t)?.selections);
      } else if (g.grader === 'tool-search') {
        cell.search.cases++;
        cell.search.searches += num(g.data?.searches);
        cell.search.searchTurns += num(g.data?.searchTurns);
        if (g.pass) cell.search.found++;
      }
    }
  }

  private addSelections(cell: PresentationCell, selections: unknown): void {
    if (!Array.isArray(selections)) return;
    for (const s of selections) {
      if (!isSelection(s)) continue;
      let t = cell.tools.get(s.expected);
      if (!t) {
        t = {
          tool: s.expected,
          expected: 0,
          right: 0,
          wrongArguments: 0,
          otherTool: 0,
          distractor: 0,
          hallucinated: 0,
          noCall: 0,
        };
        cell.tools.set(s.expected, t);
      }
      t.expected++;
      const field = HOW_FIELD[s.how] as Exclude<keyof ToolTally, 'tool'>;
      t[field]++;
      if ((s.how === 'other-tool' || s.how === 'distractor' || s.how === 'hallucinated') && s.called !== null) {
        const k = `${s.expected}\u0000${s.how}\u0000${s.called}`;
        let c = cell.confusions.get(k);
        if (!c) {
          c = { expected: s.expected, called: s.called, how: s.how, count: 0 };
          if (isDescriptions(s.descriptions)) c.descriptions = s.descriptions;
          cell.confusions.set(k, c);
        }
        c.count++;
      }
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A conversation turn's grade data, when it has one. */
function dataOf(turn: Record<string, unknown>): Record<string, unknown> | undefined {
  return isObject(turn.data) ? turn.data : undefined;
}
