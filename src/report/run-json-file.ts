import type { RunAggregate } from '../run-log/aggregate.js';
import { BufferedFile } from '../util/buffered-file.js';
import { jsonText } from '../util/json-text.js';
import type { CompareResult } from './compare.js';
import { renderRunJson } from './json.js';
import { snapshotCases } from './snapshot.js';

const EMPTY_CASES = '"cases": {}\n  }\n}';

/**
 * Writes run.json exactly as `JSON.stringify(renderRunJson(...), null, 2)` would, but streams the per-case part of
 * the snapshot (the bulk of the file: a line group per case in a cell) instead of building it as one object and one
 * string, which at 100,000 cases cost tens of megabytes of heap. Written with jsonText, which no depth of a grade's
 * data can make fail.
 */
export function writeRunJson(
  file: string,
  agg: RunAggregate,
  extra: { interrupted: boolean; comparison?: CompareResult | null; gate?: { exitCode: number; lines: string[] } },
): void {
  const text = jsonText(renderRunJson(agg, extra, { snapshotCases: false }), { indent: 2 }) as string;
  // `snapshot` is the last key of run.json and `cases` the last key of the snapshot.
  if (!text.endsWith(EMPTY_CASES)) throw new Error('run.json layout changed: snapshot.cases is not last');
  // under a temporary name until whole: a failure half-way leaves no partial run.json (nor a previous one torn)
  const out = new BufferedFile(file, { replace: true });
  try {
    out.write(text.slice(0, text.length - EMPTY_CASES.length));
    out.write('"cases": {');
    let first = true;
    for (const [key, graders] of snapshotCases(agg)) {
      out.write(
        `${first ? '' : ','}\n      ${JSON.stringify(key)}: ${(jsonText(graders, { indent: 2 }) as string).replace(/\n/g, '\n      ')}`,
      );
      first = false;
    }
    out.write(first ? '}\n  }\n}\n' : '\n    }\n  }\n}\n');
    out.close();
  } catch (e) {
    out.discard();
    throw e;
  }
}
