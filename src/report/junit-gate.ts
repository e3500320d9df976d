import { cellKey } from '../run-log/aggregate.js';
import type { CaseRecord, GateCheck } from '../run-log/schema.js';
import type { CompareResult } from './compare.js';

/** One check the gate made (run-log/schema.ts: the footer keeps them). */
export type { GateCheck };

/** What the gate decided, for junit.xml: its checks; none when nothing was judged (a cancelled run, `grade`). */
export interface JudgedGate {
  exitCode: number;
  checks: readonly GateCheck[];
}

/** Cases listed per failing check (and per cell and grader kept while the run goes): the first ones, and a count. */
export const LISTED_CASES = 50;

interface Listed {
  count: number;
  lines: string[];
}

/**
 * The failing grades and the infrastructure errors of a run, the first LISTED_CASES of each cell and grader (and of
 * errors), kept as records go by so a failing check can name its cases: bounded memory whatever the run's size.
 */
export class FailingCases {
  /** grader → cell (renderer|provider) → its failing cases. */
  private readonly failed = new Map<string, Map<string, Listed>>();
  private readonly errors: Listed = { count: 0, lines: [] };

  add(r: CaseRecord): void {
    if (r.error) {
      note(this.errors, `${r.key}: ${r.error.code}: ${flat(r.error.message)}`);
      return;
    }
    for (const g of r.grades) {
      if (g.pass) continue;
      let cells = this.failed.get(g.grader);
      if (!cells) {
        cells = new Map();
        this.failed.set(g.grader, cells);
      }
      const cell = cellKey(r.renderer, r.provider);
      let l = cells.get(cell);
      if (!l) {
        l = { count: 0, lines: [] };
        cells.set(cell, l);
      }
      note(l, `${r.key}: ${flat(g.reason)}`);
    }
  }

  /** The text under a failing check: its gate line, then the cases it is about. */
  detail(check: GateCheck, comparison?: CompareResult | null): string {
    const listed = this.casesOf(check, comparison);
    const more = listed.count - listed.lines.length;
    const head = listed.count
      ? `${listed.count} case(s)${more > 0 ? `, the first ${listed.lines.length} listed (results.csv has every one)` : ''}:`
      : 'no case listed';
    return [check.line, head, ...listed.lines].join('\n');
  }

  private casesOf(check: GateCheck, comparison?: CompareResult | null): Listed {
    if (check.kind === 'infrastructure') return this.errors;
    const only = check.renderer !== undefined ? cellKey(check.renderer, check.provider ?? '') : undefined;
    if (check.kind === 'regression') {
      // a flip's key is suite/case|renderer|provider
      const flips = (comparison?.flips ?? []).filter(
        (f) =>
          f.grader === check.grader &&
          f.key.slice(f.key.indexOf('|') + 1) === only &&
          f.from === 'pass' &&
          f.to !== 'pass',
      );
      return {
        count: flips.length,
        lines: flips
          .slice(0, LISTED_CASES)
          .map((f) => `${f.key}: ${f.from} (${f.base.join('/')}) → ${f.to} (${f.run.join('/')})`),
      };
    }
    const all: Listed = { count: 0, lines: [] };
    for (const [cell, l] of this.failed.get(check.grader ?? '') ?? []) {
      if (only !== undefined && cell !== only) continue;
      all.count += l.count;
      all.lines.push(...l.lines.slice(0, LISTED_CASES - all.lines.length));
    }
    return all;
  }
}

function note(l: Listed, line: string): void {
  l.count++;
  if (l.lines.length < LISTED_CASES) l.lines.push(line);
}

function flat(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 300 ? `${one.slice(0, 297)}…` : one;
}
