import { join } from 'node:path';
import type { RunStart } from '../../contracts/reporter.js';
import { cellKey, repeatsOf } from '../../run-log/aggregate.js';
import type { CaseRecord } from '../../run-log/schema.js';
import type { BufferedFile } from '../../util/buffered-file.js';
import { writeAllSync, writeFileWhole } from '../../util/write-file.js';
import {
  countJunitCase,
  JUNIT_EPILOGUE,
  JUNIT_PROLOGUE,
  JUNIT_SUITE_CLOSE,
  type JunitSuiteCounts,
  junitSuiteOpen,
  junitTestcase,
  newJunitSuite,
} from '../junit.js';
import type { BuiltinReporter, ReportEnd } from './builtin-reporter.js';
import { appendFile, PartFiles } from './part-files.js';

interface JunitPart {
  counts: JunitSuiteCounts;
  file: BufferedFile;
}

/**
 * junit.xml, a <testsuite> per cell. A suite's counts are attributes of its opening tag, so the test cases go into
 * one part file per cell as records go by, and the suites are assembled at the end.
 */
export function junitReporter(options: { hostname?: string } = {}): BuiltinReporter {
  const junit = new Map<string, JunitPart>();
  let parts: PartFiles | undefined;
  let runDir = '';
  let repeats = 1;
  return {
    name: 'junit',
    files: ['junit.xml'],
    onRunStart(run: RunStart) {
      runDir = run.runDir;
      repeats = repeatsOf(run.header);
      parts = new PartFiles(runDir);
    },
    onCase(r: CaseRecord) {
      const key = cellKey(r.renderer, r.provider);
      let j = junit.get(key);
      if (!j) {
        j = {
          counts: newJunitSuite(r.renderer, r.provider, r.simulated),
          file: (parts as PartFiles).open(`.junit-${junit.size}.part`),
        };
        junit.set(key, j);
      }
      const tc = junitTestcase(r, repeats);
      countJunitCase(j.counts, tc);
      j.file.write(`${tc.xml}\n`);
    },
    onRunEnd({ aggregate: agg }: ReportEnd) {
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
            writeAllSync(fd, JUNIT_SUITE_CLOSE);
          });
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
