import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCompare } from '../compare-md.js';
import type { BuiltinReporter, ReportEnd } from './builtin-reporter.js';

/** summary.md (regressions first, then the matrix), and compare.md when the run was compared with a baseline. */
export function summaryReporter(): BuiltinReporter {
  return {
    name: 'summary',
    files: ['summary.md', 'compare.md'],
    onRunStart() {},
    onRunEnd(end: ReportEnd) {
      writeFileSync(join(end.runDir, 'summary.md'), end.summary);
      if (end.comparison) writeFileSync(join(end.runDir, 'compare.md'), renderCompare(end.comparison));
    },
  };
}
