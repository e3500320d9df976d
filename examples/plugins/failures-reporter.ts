// A reporter plugin: writes failures.txt in the run folder, one line per failing or errored case, and prints a
// one-line tally. Every hook is optional and may be async; toolgauge awaits them before the run ends.
//   reporters: [default, ./examples/plugins/failures-reporter.ts]
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReporterExport } from 'toolgauge';

export const reporter: ReporterExport = () => {
  let file = '';
  let failing = 0;
  return {
    name: 'failures',
    onRunStart({ runDir }) {
      file = join(runDir, 'failures.txt');
      writeFileSync(file, '');
    },
    onCase(record) {
      const failed = record.grades.filter((g) => !g.pass).map((g) => `${g.grader}: ${g.reason}`);
      if (!record.error && failed.length === 0) return;
      failing++;
      const why = record.error ? `error ${record.error.code}` : failed.join(' | ');
      appendFileSync(file, `${record.key}\t${why}\n`);
    },
    onRunEnd({ total, gate }) {
      process.stderr.write(`failures: ${failing} of ${total} case(s)${gate ? `, gate exit ${gate.exitCode}` : ''}\n`);
    },
  };
};
