import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_FILES } from '../src/report/report-sink.js';
import type { RunFooter } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runDirFrom, startCli } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/**
 * Runs eval through the real CLI and closes its stdout and stderr (as `| head -1` does) as soon as it has
 * announced its run folder, long before the cases, the progress lines and the summary are written.
 */
async function evalWithClosedOutput(config: string, ...args: string[]) {
  const out = tempDir('tg-pipe-');
  const child = startCli(['eval', '-c', join(FIXTURES, config), '--out', out, ...args]);
  let stderr = '';
  const dir = new Promise<string>((resolve) => {
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!stderr.includes('→')) return;
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(runDirFrom(stderr));
    });
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { code, dir: await dir };
}

/** The run log ends with its footer, every case finished, and every report is written. */
function expectCompleteRun(dir: string, planned: number) {
  const records = readRecords(join(dir, 'run.jsonl'));
  expect(records.filter((r) => r.type === 'case')).toHaveLength(planned);
  expect(records.at(-1) as RunFooter).toMatchObject({ type: 'footer', interrupted: false, completed: planned });
  for (const file of REPORT_FILES) expect(existsSync(join(dir, file)), file).toBe(true);
}

describe('a reader that closes stdout and stderr early (toolgauge eval 2>&1 | head -1)', () => {
  it('does not stop the run: complete run log and reports, and the gate passed exit code 0', async () => {
    const { code, dir } = await evalWithClosedOutput('mini.config.yaml', '--repeat', '20');
    expectCompleteRun(dir, 240);
    expect(code).toBe(0);
  }, 60_000);

  it("keeps the gate's failed verdict, exit code 1, with complete reports", async () => {
    const { code, dir } = await evalWithClosedOutput('gate.config.yaml', '--repeat', '20');
    expectCompleteRun(dir, 60);
    expect(code).toBe(1);
  }, 60_000);
});
