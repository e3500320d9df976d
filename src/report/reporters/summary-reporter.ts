import { join } from 'node:path';
import { writeFileWhole } from '../../util/write-file.js';
import { renderCompare } from '../compare-md.js';
import type { BuiltinReporter, ReportEnd } from './builtin-reporter.js';

/** summary.md (regressions first, then the matrix), and compare.md when the run was compared with a baseline. */
export function summaryReporter(): BuiltinReporter {
  return {
    name: 'summary',
    files: ['summary.md', 'compare.md'],
    onRunStart() {},
    onRunEnd(end: ReportEnd) {
      writeFileWhole(join(end.runDir, 'summary.md'), end.summary);
      if (end.comparison) writeFileWhole(join(end.runDir, 'compare.md'), renderCompare(end.comparison));
    },
  };
}
