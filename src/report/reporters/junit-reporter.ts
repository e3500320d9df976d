import { join } from 'node:path';
import type { RunStart } from '../../contracts/reporter.js';
import { cellKey, repeatsOf } from '../../run-log/aggregate.js';
import type { CaseRecord } from '../../run-log/schema.js';
import type { BufferedFile } from '../../util/buffered-file.js';
import { writeAllSync, writeFileWhole } from '../../util/write-file.js';
import {
  countJunitCase,
  JUNIT_EPILOGUE,
  JUNIT_OUT_OPEN,
  JUNIT_PROLOGUE,
  JUNIT_SUITE_CLOSE,
  type JunitSuiteCounts,
  junitGateSuite,
  junitSuiteOpen,
  junitTestcase,
  newJunitSuite,
  xmlEscape,
} from '../junit.js';
import { FailingCases } from '../junit-gate.js';
import type { BuiltinReporter, ReportEnd } from './builtin-reporter.js';
import { appendFile, PartFiles } from './part-files.js';

interface JunitPart {
  counts: JunitSuiteCounts;
  /** The suite's <testcase> elements, and the text of its <system-out> (the failed graders). */
  file: BufferedFile;
  out: BufferedFile;
}

/**
 * junit.xml, a <testsuite> per cell, then the gate's. A suite's counts are attributes of its opening tag, so the test
 * cases and the <system-out> lines go into part files per cell as records go by, and the suites are assembled at
 * the end; the failing cases a failed gate check names are kept as they go by too (FailingCases, bounded).
 */
export function junitReporter(options: { hostname?: string } = {}): BuiltinReporter {
  const junit = new Map<string, JunitPart>();
  let parts: PartFiles | undefined;
  let failing = new FailingCases();
  let runDir = '';
  let repeats = 1;
  return {
    name: 'junit',
    files: ['junit.xml'],
    onRunStart(run: RunStart) {
      runDir = run.runDir;
      repeats = repeatsOf(run.header);
      parts = new PartFiles(runDir);
      failing = new FailingCases();
    },
    onCase(r: CaseRecord) {
      const key = cellKey(r.renderer, r.provider);
      let j = junit.get(key);
      if (!j) {
        const p = parts as PartFiles;
        j = {
          counts: newJunitSuite(r.renderer, r.provider, r.simulated),
          file: p.open(`.junit-${junit.size}.part`),
          out: p.open(`.junit-${junit.size}.out.part`),
        };
        junit.set(key, j);
      }
      const tc = junitTestcase(r, repeats);
      countJunitCase(j.counts, tc);
      failing.add(r);
      j.file.write(`${tc.xml}\n`);
      if (tc.out) j.out.write(xmlEscape(tc.out));
    },
    onRunEnd(end: ReportEnd) {
      const agg = end.aggregate;
      parts?.close();
      try {
        // under a temporary name until whole: a failure half-way leaves no partial junit.xml
        writeFileWhole(join(runDir, 'junit.xml'), (fd) => {
          writeAllSync(fd, JUNIT_PROLOGUE);
          // Suites in the aggregate's cell order (the planned cells first), as renderJunit orders them.
          const keys = [...new Set([...agg.cells.keys(), ...junit.keys()])];
          keys.forEach((key, id) => {
            const j = junit.get(key);
            const cell = agg.cells.get(key);
            const counts =
              j?.counts ?? newJunitSuite(cell?.renderer ?? '', cell?.provider ?? '', cell?.simulated ?? false);
            writeAllSync(fd, junitSuiteOpen(agg, counts, id, options.hostname));
            if (j) appendFile(fd, j.file.file);
            writeAllSync(fd, JUNIT_OUT_OPEN);
            if (j) appendFile(fd, j.out.file);
            writeAllSync(fd, JUNIT_SUITE_CLOSE);
          });
          writeAllSync(fd, junitGateSuite(agg, end, failing, keys.length, options.hostname));
          writeAllSync(fd, JUNIT_EPILOGUE);
        });
      } finally {
        parts?.remove();
      }
    },
    discard() {
      parts?.remove();
    },
  };
}
