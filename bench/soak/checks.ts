/** The soak's end checks on a run folder: every case once, no torn line, no secret, report = log. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blobHash } from '../../src/run-log/blobs.js';
import type { CaseRecord, RunFooter, RunHeader } from '../../src/run-log/schema.js';

export interface LogCheck {
  lines: number;
  /** Lines that are not JSON, headers after the first line, footers before the last line. */
  torn: string[];
  header?: RunHeader;
  footer?: RunFooter;
  cases: CaseRecord[];
  /** Planned (case|renderer|repeat) items absent from the log. */
  lost: string[];
  /** Items logged more than once (one entry per extra copy). */
  duplicates: string[];
  errorsByCode: Record<string, number>;
}

/**
 * Reads run.jsonl line by line; `planned` holds the "case|renderer|repeat" items the soak planned. Blob lines (format
 * 2: a text stored once, docs/run-log.md) may come anywhere between the header and the footer and must hold the text
 * their hash names; a packed case record keeps its case, renderer, repeat and error (only derived fields are left out).
 */
export function checkLog(file: string, planned: ReadonlySet<string>): LogCheck {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const out: LogCheck = { lines: lines.length, torn: [], cases: [], lost: [], duplicates: [], errorsByCode: {} };
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    let rec: { type?: unknown };
    try {
      rec = JSON.parse(line) as { type?: unknown };
    } catch {
      out.torn.push(`line ${i + 1}: not JSON (${line.slice(0, 80)}…)`);
      return;
    }
    if (rec.type === 'header') {
      if (i === 0) out.header = rec as RunHeader;
      else out.torn.push(`line ${i + 1}: a header after the first line`);
    } else if (rec.type === 'footer') {
      if (i === lines.length - 1) out.footer = rec as RunFooter;
      else out.torn.push(`line ${i + 1}: a footer before the last line`);
    } else if (rec.type === 'blob') {
      const blob = rec as { hash?: unknown; text?: unknown };
      if (i === 0 || typeof blob.text !== 'string' || blob.hash !== blobHash(blob.text))
        out.torn.push(`line ${i + 1}: a blob line that is misplaced or does not hold the text its hash names`);
    } else if (rec.type === 'case') {
      const c = rec as CaseRecord;
      out.cases.push(c);
      const item = `${c.case}|${c.renderer}|${c.repeat}`;
      if (seen.has(item)) out.duplicates.push(item);
      seen.add(item);
      if (!planned.has(item)) out.torn.push(`line ${i + 1}: an unplanned case ${item}`);
      if (c.error) out.errorsByCode[c.error.code] = (out.errorsByCode[c.error.code] ?? 0) + 1;
    } else out.torn.push(`line ${i + 1}: unknown record type ${String(rec.type)}`);
  });
  if (!out.header) out.torn.push('no header on the first line');
  if (!out.footer) out.torn.push('no footer on the last line');
  for (const item of planned) if (!seen.has(item)) out.lost.push(item);
  return out;
}

/** Every file under `dir` (recursively) that contains one of `secrets`, with which one. */
export function secretsIn(dir: string, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    const text = readFileSync(path, 'latin1');
    for (const s of secrets) if (text.includes(s)) found.push(`${path} contains ${s.slice(0, 14)}…`);
  }
  return found;
}

/** Differences between the counts the run's report states and the counts re-read from its log. */
export function reportMismatches(log: LogCheck, reportCsv: string, regeneratedCsv: string): string[] {
  const problems: string[] = [];
  if (reportCsv !== regeneratedCsv) problems.push('results.csv differs from `toolgauge report` on a copy of run.jsonl');
  const errors = log.cases.filter((c) => c.error).length;
  if (log.footer && log.footer.completed !== log.cases.length)
    problems.push(`footer.completed ${log.footer.completed} ≠ ${log.cases.length} case lines`);
  if (log.footer && log.footer.errors !== errors)
    problems.push(`footer.errors ${log.footer.errors} ≠ ${errors} errored cases`);
  if (log.header && log.header.plannedCases !== log.cases.length)
    problems.push(`header.plannedCases ${log.header.plannedCases} ≠ ${log.cases.length} case lines`);
  return problems;
}
