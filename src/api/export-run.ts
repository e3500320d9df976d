import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ToolgaugeError } from '../errors.js';
import { PromptfooExport } from '../export/promptfoo-results.js';
import { readRunLog } from '../run-log/reader.js';
import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import { BufferedFile } from '../util/buffered-file.js';
import { prepareOutputFile } from '../util/output-folder.js';

/** What `toolgauge export` takes besides the format and the run. */
export interface ExportOptions {
  /** Output file (default: <run-dir>/promptfoo.json). */
  out?: string;
}

/** What an export wrote: the file, and how many results it holds. */
export interface ExportResult {
  /** Absolute path of the file written. */
  file: string;
  results: number;
}

const FORMATS = ['promptfoo'] as const;

/**
 * `toolgauge export promptfoo <run-dir>` as a function: writes promptfoo's eval JSON (results version 3) so `promptfoo import`
 * and `promptfoo view` show a toolgauge run. Streams the run log twice; memory does not grow with the run.
 */
export async function exportRun(format: string, runDir: string, flags: ExportOptions = {}): Promise<ExportResult> {
  if (!(FORMATS as readonly string[]).includes(format))
    throw new ToolgaugeError('USAGE', `export ${format}: unknown format; valid: ${FORMATS.join(', ')}`);
  const log = join(resolve(runDir), 'run.jsonl');
  if (!existsSync(log))
    throw new ToolgaugeError(
      'USAGE',
      `export ${format} ${runDir}: no run.jsonl there (pass a reports/<run-id> folder)`,
    );
  const out = resolve(flags.out ?? join(runDir, 'promptfoo.json'));
  prepareOutputFile(out, flags.out ? `--out ${flags.out}` : `export ${format} (writes ${out})`);
  let exporter: PromptfooExport | undefined;
  for await (const r of readRunLog(log)) {
    if (r.type === 'header') exporter ??= new PromptfooExport(r as RunHeader);
    else if (r.type === 'case') exporter?.observe(r);
  }
  if (!exporter) throw new ToolgaugeError('USAGE', `export ${format} ${runDir}: run.jsonl has no header record`);
  const head = exporter.head();
  const headJson = JSON.stringify(head);
  // Splice the streamed results array into results: {version, timestamp, prompts, stats, results: [...]}.
  const marker = '"results":{';
  const at = headJson.indexOf(marker) + marker.length;
  // under a temporary name until whole: a failure half-way (a full disk) leaves no partial file
  const file = new BufferedFile(out, { replace: true });
  let n = 0;
  try {
    file.write(`${headJson.slice(0, at)}"results":[`);
    for await (const r of readRunLog(log)) {
      if (r.type !== 'case') continue;
      file.write(`${n++ ? ',' : ''}${JSON.stringify(exporter.result(r as CaseRecord))}`);
    }
    file.write(`],${headJson.slice(at)}`);
    file.close();
  } catch (e) {
    file.discard();
    throw e;
  }
  return { file: out, results: n };
}
