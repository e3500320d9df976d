import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { SuiteCase } from '../contracts/suite.js';
import { ToolgaugeError } from '../errors.js';
import { displayPath } from '../util/display-path.js';

/**
 * A suite's cases: counted when the suite is loaded, iterated as often as a run needs them (once per repeat, and by
 * the checks before it). Held in memory for a suite of ordinary size; read again from the file, a batch at a time,
 * for a large one ({@link FileCases}), so a run's memory does not grow with the number of cases.
 */
export interface SuiteCases extends Iterable<SuiteCase> {
  readonly count: number;
  /** Each case with its index in the suite file's `cases:` list (what a problem's `cases[i]` path names). */
  entries(): Iterable<[number, SuiteCase]>;
}

/** Cases held in memory. */
export function casesOf(list: readonly SuiteCase[]): SuiteCases {
  return {
    count: list.length,
    [Symbol.iterator]: () => list[Symbol.iterator](),
    entries: () => list.entries(),
  };
}

/** The cases `keep` takes, in file order; counted now (a pass over the cases), filtered again on each iteration. */
export function filterCases(cases: SuiteCases, keep: (c: SuiteCase) => boolean): SuiteCases {
  let count = 0;
  for (const c of cases) if (keep(c)) count++;
  return {
    count,
    *[Symbol.iterator]() {
      for (const c of cases) if (keep(c)) yield c;
    },
    *entries() {
      for (const e of cases.entries()) if (keep(e[1])) yield e;
    },
  };
}

/** The first case `match` takes, reading no further than it. */
export function findCase(cases: Iterable<SuiteCase>, match: (c: SuiteCase) => boolean): SuiteCase | undefined {
  for (const c of cases) if (match(c)) return c;
  return undefined;
}

/** The first case of a suite (a suite has at least one). */
export function firstCase(cases: Iterable<SuiteCase>): SuiteCase | undefined {
  return findCase(cases, () => true);
}

/** One batch of cases in a suite file: its byte range and how many cases it holds. */
export interface CaseBatch {
  start: number;
  end: number;
  count: number;
}

/** What identifies the suite file's content as it was validated: a change means the batches no longer hold. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/**
 * The cases of a large suite file, validated once when it was loaded and read again, one batch at a time, whenever
 * they are iterated: only the batch in use (and the cases still running from the one before) is in memory. The file
 * must not change meanwhile; if it does, reading stops with SUITE_INVALID rather than run cases that were never
 * validated, or the wrong ones.
 */
export class FileCases implements SuiteCases {
  constructor(
    readonly file: string,
    readonly batches: readonly CaseBatch[],
    readonly count: number,
    private readonly stamp: FileStamp,
    /** The validated cases of one batch's text; throws when they are not exactly `count` valid cases. */
    private readonly parse: (text: string, count: number) => SuiteCase[],
  ) {}

  *[Symbol.iterator](): Iterator<SuiteCase> {
    for (const b of this.batches) yield* this.read(b);
  }

  *entries(): Iterable<[number, SuiteCase]> {
    let i = 0;
    for (const b of this.batches) for (const c of this.read(b)) yield [i++, c];
  }

  private read(batch: CaseBatch): SuiteCase[] {
    const buf = Buffer.allocUnsafe(batch.end - batch.start);
    const fd = this.open();
    try {
      const st = fstatSync(fd);
      if (st.size !== this.stamp.size || st.mtimeMs !== this.stamp.mtimeMs) throw this.changed();
      let got = 0;
      while (got < buf.length) {
        const n = readSync(fd, buf, got, buf.length - got, batch.start + got);
        if (n === 0) throw this.changed();
        got += n;
      }
    } finally {
      closeSync(fd);
    }
    try {
      return this.parse(buf.toString('utf8'), batch.count);
    } catch {
      throw this.changed();
    }
  }

  private open(): number {
    try {
      return openSync(this.file, 'r');
    } catch {
      throw this.changed();
    }
  }

  private changed(): ToolgaugeError {
    return new ToolgaugeError(
      'SUITE_INVALID',
      `${displayPath(this.file)}: the suite file changed (or went away) while the run was reading it; ` +
        'leave suite files alone during a run, then resume it with `eval --resume`',
      { file: this.file },
    );
  }
}

const byId = new WeakMap<SuiteCases, ReadonlyMap<string, SuiteCase>>();

/**
 * The cases by id, for a command that looks cases up in an order of its own (regrade, parse, offline grading): every
 * case in memory, built once per suite.
 */
export function casesById(cases: SuiteCases): ReadonlyMap<string, SuiteCase> {
  let map = byId.get(cases);
  if (!map) {
    map = new Map(Array.from(cases, (c) => [c.id, c]));
    byId.set(cases, map);
  }
  return map;
}
