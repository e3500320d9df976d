import { caseRecords } from '../run-log/reader.js';
import type { CaseRecord } from '../run-log/schema.js';

/** A case failed when it hit an infrastructure error or any grader did not pass. */
export function failed(record: CaseRecord): boolean {
  return Boolean(record.error) || record.grades.some((g) => !g.pass);
}

/** The plan keys of a run's cases: all of them, or only the failing ones. */
export async function runKeys(runLog: string, onlyFailures: boolean): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const r of caseRecords(runLog)) if (!onlyFailures || failed(r)) keys.add(r.key);
  return keys;
}
