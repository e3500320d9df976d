import { join } from 'node:path';
import type { RunStart } from '../../contracts/reporter.js';
import type { CaseRecord } from '../../run-log/schema.js';
import { BufferedFile } from '../../util/buffered-file.js';
import { csvHeader, csvRows } from '../csv.js';
import type { BuiltinReporter } from './builtin-reporter.js';

/** results.csv, a row per grade, written as the records go by. */
export function csvReporter(): BuiltinReporter {
  let csv: BufferedFile | undefined;
  return {
    name: 'csv',
    files: ['results.csv'],
    onRunStart(run: RunStart) {
      csv = new BufferedFile(join(run.runDir, 'results.csv'), { replace: true });
      csv.write(csvHeader());
    },
    onCase(r: CaseRecord) {
      const rows = csvRows(r);
      if (rows) csv?.write(rows);
    },
    onRunEnd() {
      const file = csv;
      csv = undefined;
      file?.close();
    },
    discard() {
      csv?.discard();
      csv = undefined;
    },
  };
}
