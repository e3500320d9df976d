import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OUTER_TMPDIR_ENV } from '../helpers/temp-guard.js';

/**
 * Global setup: the whole run gets a fresh temporary folder (TMPDIR, inherited by the test workers and every process
 * they start), so what the suite leaves behind is told apart from what other runs on the machine make at the same
 * time. Each test file works in a folder of its own inside it (tests/setup/file-tmpdir.ts); at the end the run's
 * folder must be empty, and is removed.
 */
export default function setup(): () => void {
  const outer = tmpdir();
  const runTmp = mkdtempSync(join(outer, 'toolgauge-tests-'));
  const before = { TMPDIR: process.env.TMPDIR, outer: process.env[OUTER_TMPDIR_ENV] };
  process.env[OUTER_TMPDIR_ENV] = outer;
  process.env.TMPDIR = runTmp;
  return () => {
    const left = readdirSync(runTmp);
    rmSync(runTmp, { recursive: true, force: true });
    restore('TMPDIR', before.TMPDIR);
    restore(OUTER_TMPDIR_ENV, before.outer);
    if (left.length > 0) {
      // vitest reports an error thrown here and still exits 0: the exit code is set instead.
      process.stderr.write(
        `tests: the run left ${left.length} item(s) in its temporary folder ${runTmp}: ${left.join(', ')}\n`,
      );
      process.exitCode = 1;
    }
  };
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
