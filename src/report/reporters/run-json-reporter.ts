import { join } from 'node:path';
import { writeRunJson } from '../run-json-file.js';
import type { BuiltinReporter, ReportEnd } from './builtin-reporter.js';

/** run.json: the summary numbers and the per-case snapshot that `compare` and `baseline update` read. */
export function runJsonReporter(): BuiltinReporter {
  return {
    name: 'json',
    files: ['run.json'],
    onRunStart() {},
    onRunEnd(end: ReportEnd) {
      writeRunJson(join(end.runDir, 'run.json'), end.aggregate, {
        interrupted: end.interrupted,
        ...(end.comparison !== undefined ? { comparison: end.comparison } : {}),
        ...(end.gate ? { gate: end.gate } : {}),
      });
    },
  };
}
