import { closeSync, openSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import { BufferedFile } from '../util/buffered-file.js';
import { cellKey, type RunAggregate, repeatsOf } from '../run-log/aggregate.js';
import type { CompareResult } from './compare.js';
import { renderCompare } from './compare-md.js';
import { csvHeader, csvRows } from './csv.js';
import { DEFAULT_MAX_HTML_CASES, htmlFoot, htmlHead, isFailing } from './html.js';
import { caseHtml } from './html-case.js';
import {
  countJunitCase,
  JUNIT_EPILOGUE,
  JUNIT_PROLOGUE,
  JUNIT_SUITE_CLOSE,
  type JunitSuiteCounts,
  junitSuiteOpen,
  junitTestcase,
  newJunitSuite,
} from './junit.js';
import { writeRunJson } from './run-json-file.js';
import { renderSummary } from './summary.js';

export const REPORT_FILES = ['summary.md', 'report.html', 'results.csv', 'junit.xml', 'run.json'] as const;

export interface ReportSinkOptions {
  /** Most drill-downs embedded in report.html (failing cases first). */
  maxHtmlCases?: number;
  /** Host named in junit.xml. */
  hostname?: string;
}

export interface FinishInput {
  /** The aggregate of exactly the records given to `add`. */
  aggregate: RunAggregate;
  /** How the run folder is named in the reports (a display path). */
  displayDir: string;
  interrupted: boolean;
  comparison?: CompareResult | null;
  gate?: { exitCode: number; lines: string[] };
}

interface JunitPart {
  counts: JunitSuiteCounts;
  file: BufferedFile;
}

/**
 * Every per-case report of a run, written in one pass as the records go by (fed by the runner as cases finish,
 * or by one read of run.jsonl): results.csv row by row; junit.xml's test cases into one part file per cell (a
 * <testsuite>'s counts are attributes of its opening tag, so the suites are assembled at the end); report.html's
 * drill-downs into a failing and a passing part file, each capped, so "failing first" needs no second pass. At
 * `finish` the summary reports (summary.md, run.json, compare.md) are written from the aggregate and the parts
 * are assembled and removed. Memory: the write buffers and a few counters, whatever the size of the run.
 */
export class ReportSink {
  private readonly csv: BufferedFile;
  private readonly junit = new Map<string, JunitPart>();
  private readonly failing: BufferedFile;
  private readonly passing: BufferedFile;
  /** Byte offset of the end of each embedded passing drill-down (at most `max` of them). */
  private readonly passingEnds: number[] = [];
  private failingEmbedded = 0;
  private failingTotal = 0;
  private passingTotal = 0;
  private readonly max: number;
  private readonly repeats: number;
  private readonly parts: string[] = [];
  private closed = false;

  constructor(
    readonly runDir: string,
    header: RunHeader,
    private readonly options: ReportSinkOptions = {},
  ) {
    this.max = options.maxHtmlCases ?? DEFAULT_MAX_HTML_CASES;
    this.repeats = repeatsOf(header);
    this.csv = new BufferedFile(join(runDir, 'results.csv'));
    this.csv.write(csvHeader());
    this.failing = this.part('.report-failing.part');
    this.passing = this.part('.report-passing.part');
  }

  private part(name: string): BufferedFile {
    const file = join(this.runDir, name);
    this.parts.push(file);
    return new BufferedFile(file);
  }

  add(r: CaseRecord): void {
    const rows = csvRows(r);
    if (rows) this.csv.write(rows);
    const key = cellKey(r.renderer, r.provider);
    let j = this.junit.get(key);
    if (!j) {
      j = {
        counts: newJunitSuite(r.renderer, r.provider, r.simulated),
        file: this.part(`.junit-${this.junit.size}.part`),
      };
      this.junit.set(key, j);
    }
    const tc = junitTestcase(r, this.repeats);
    countJunitCase(j.counts, tc);
    j.file.write(`${tc.xml}\n`);
    if (isFailing(r)) {
      this.failingTotal++;
      if (this.failingEmbedded < this.max) {
        this.failingEmbedded++;
        this.failing.write(caseHtml(r));
      }
    } else {
      this.passingTotal++;
      if (this.passingEnds.length < this.max) {
        this.passing.write(caseHtml(r));
        this.passingEnds.push(this.passing.bytes);
      }
    }
  }

  /** Writes every report and removes the part files. Returns the summary text (summary.md). */
  finish(input: FinishInput): string {
    const agg = input.aggregate;
    const { runDir } = this;
    this.closeFiles();
    try {
      const summary = renderSummary(agg, {
        runDir: input.displayDir,
        interrupted: input.interrupted,
        ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
        ...(input.gate ? { gateLines: input.gate.lines } : {}),
      });
      writeFileSync(join(runDir, 'summary.md'), summary);
      writeRunJson(join(runDir, 'run.json'), agg, {
        interrupted: input.interrupted,
        ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
        ...(input.gate ? { gate: input.gate } : {}),
      });
      if (input.comparison) writeFileSync(join(runDir, 'compare.md'), renderCompare(input.comparison));
      this.assembleJunit(agg);
      this.assembleHtml(agg, input);
      return summary;
    } finally {
      this.removeParts();
    }
  }

  /** Closes and removes everything unfinished (a run that failed before its reports). */
  discard(): void {
    this.closeFiles();
    this.removeParts();
  }

  private closeFiles(): void {
    if (this.closed) return;
    this.closed = true;
    this.csv.close();
    this.failing.close();
    this.passing.close();
    for (const j of this.junit.values()) j.file.close();
  }

  private removeParts(): void {
    for (const f of this.parts) rmSync(f, { force: true });
  }

  private assembleJunit(agg: RunAggregate): void {
    const fd = openSync(join(this.runDir, 'junit.xml'), 'w');
    try {
      writeSync(fd, JUNIT_PROLOGUE);
      // Suites in the aggregate's cell order (the planned cells first), as renderJunit orders them.
      const keys = [...new Set([...agg.cells.keys(), ...this.junit.keys()])];
      keys.forEach((key, id) => {
        const j = this.junit.get(key);
        const cell = agg.cells.get(key);
        const counts = j?.counts ?? newJunitSuite(cell?.renderer ?? '', cell?.provider ?? '', cell?.simulated ?? false);
        writeSync(fd, junitSuiteOpen(agg, counts, id, this.options.hostname));
        if (j) appendFile(fd, j.file.file);
        writeSync(fd, JUNIT_SUITE_CLOSE);
      });
      writeSync(fd, JUNIT_EPILOGUE);
    } finally {
      closeSync(fd);
    }
  }

  private assembleHtml(agg: RunAggregate, input: FinishInput): void {
    const fd = openSync(join(this.runDir, 'report.html'), 'w');
    try {
      writeSync(
        fd,
        htmlHead(agg, {
          ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
          ...(input.gate ? { gateLines: input.gate.lines } : {}),
        }),
      );
      appendFile(fd, this.failing.file);
      const passingShown = Math.min(this.passingEnds.length, this.max - this.failingEmbedded);
      if (passingShown > 0) appendFile(fd, this.passing.file, this.passingEnds[passingShown - 1]);
      writeSync(
        fd,
        htmlFoot({
          embedded: this.failingEmbedded + passingShown,
          failingTotal: this.failingTotal,
          passingTotal: this.passingTotal,
          max: this.max,
        }),
      );
    } finally {
      closeSync(fd);
    }
  }
}

/** Copies `file` (its first `limit` bytes) to the end of the open file `fd`, 1 MiB at a time. */
function appendFile(fd: number, file: string, limit = Number.POSITIVE_INFINITY): void {
  const buf = Buffer.allocUnsafe(1 << 20);
  const src = openSync(file, 'r');
  try {
    let copied = 0;
    while (copied < limit) {
      const n = readSync(src, buf, 0, Math.min(buf.length, limit - copied), copied);
      if (n === 0) break;
      writeSync(fd, buf, 0, n);
      copied += n;
    }
  } finally {
    closeSync(src);
  }
}
