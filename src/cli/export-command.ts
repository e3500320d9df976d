import { exportRun } from '../api/export-run.js';

export interface ExportFlags {
  /** Output file (default: <run-dir>/promptfoo.json). */
  out?: string;
}

/** `toolgauge export promptfoo <run-dir>`: exportRun(), and where it wrote. */
export async function exportCommand(format: string, runDir: string, flags: ExportFlags = {}): Promise<number> {
  const { file, results } = await exportRun(format, runDir, flags);
  process.stderr.write(
    `toolgauge: wrote ${results} results to ${file} (load with: promptfoo import ${file}; then promptfoo view)\n`,
  );
  return 0;
}
