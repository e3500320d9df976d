import { createWriteStream, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { RunAggregate } from './aggregate.js';
import type { CompareResult } from './compare.js';
import { renderCompare } from './compare-md.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderRunJson } from './json.js';
import { renderJunit } from './junit.js';
import { caseRecords } from './load-run.js';
import { renderSummary } from './summary.js';

export interface WriteReportsInput {
  runDir: string;
  runLog: string;
  /** How the run folder is named in the reports (a display path). */
  displayDir: string;
  aggregate: RunAggregate;
  interrupted: boolean;
  comparison?: CompareResult | null;
  gate?: { exitCode: number; lines: string[] };
  maxHtmlCases?: number;
}

export const REPORT_FILES = ['summary.md', 'report.html', 'results.csv', 'junit.xml', 'run.json'] as const;

async function streamTo(file: string, chunks: AsyncIterable<string>): Promise<void> {
  const out = createWriteStream(file, { encoding: 'utf8' });
  for await (const chunk of chunks) {
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  out.end();
  await finished(out);
}

/**
 * Writes every report of a run into its folder: summary.md, report.html, results.csv, junit.xml, run.json
 * (and compare.md when compared with a baseline). The writers are pure; this is the only I/O. Returns the
 * summary text.
 */
export async function writeReports(input: WriteReportsInput): Promise<string> {
  const { runDir, runLog, aggregate: agg } = input;
  const summary = renderSummary(agg, {
    runDir: input.displayDir,
    interrupted: input.interrupted,
    ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
    ...(input.gate ? { gateLines: input.gate.lines } : {}),
  });
  writeFileSync(join(runDir, 'summary.md'), summary);
  const json = renderRunJson(agg, {
    interrupted: input.interrupted,
    ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
    ...(input.gate ? { gate: input.gate } : {}),
  });
  writeFileSync(join(runDir, 'run.json'), `${JSON.stringify(json, null, 2)}\n`);
  if (input.comparison) writeFileSync(join(runDir, 'compare.md'), renderCompare(input.comparison));
  await streamTo(join(runDir, 'results.csv'), renderCsv(caseRecords(runLog)));
  writeFileSync(join(runDir, 'junit.xml'), await renderJunit(agg, caseRecords(runLog), { hostname: hostname() }));
  await streamTo(
    join(runDir, 'report.html'),
    renderHtml(agg, () => caseRecords(runLog), {
      ...(input.maxHtmlCases !== undefined ? { maxCases: input.maxHtmlCases } : {}),
      ...(input.comparison !== undefined ? { comparison: input.comparison } : {}),
      ...(input.gate ? { gateLines: input.gate.lines } : {}),
    }),
  );
  return summary;
}
