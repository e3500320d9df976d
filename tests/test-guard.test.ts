import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, ROOT } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

interface FileResult {
  name: string;
  status: string;
  message: string;
  assertionResults: { status: string }[];
}

/**
 * The guard of tests/setup/ (a folder or a process left behind fails the test file) run by a child vitest on two
 * fixture files: one breaks both rules, one keeps them.
 */
describe('the guard against temporary folders and processes left behind', () => {
  it('fails the file that leaves a process and a folder, naming both, ends and removes them, and passes the tidy one', () => {
    const work = tempDir('tg-guard-');
    const out = join(work, 'vitest.json');
    const pidFile = join(work, 'pid');
    const child = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        join(FIXTURES, 'guard', 'vitest.config.ts'),
        '--reporter=json',
        `--outputFile=${out}`,
      ],
      { env: { ...process.env, TMPDIR: work, GUARD_PID_FILE: pidFile }, encoding: 'utf8' },
    );
    expect(child.status, child.stderr).toBe(1);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { testResults: FileResult[] };
    const byName = new Map(report.testResults.map((f) => [f.name.split('/').at(-1), f]));

    const leaky = byName.get('leaves-both.fixture.ts')!;
    expect(leaky.status).toBe('failed');
    expect(leaky.assertionResults.map((a) => a.status)).toEqual(['passed']);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(leaky.message).toContain(`this test file left 1 process(es) running: ${pid} `);
    expect(leaky.message).toMatch(/and left 1 item\(s\) in its temporary folder: tg-left-\w+ /);
    // the process was killed and the run's temporary folder removed: only this test's files remain (and tsx's
    // compile cache, which the guard keeps in the temporary folder it was given)
    expect(() => process.kill(pid, 0)).toThrow();
    expect(
      readdirSync(work)
        .filter((n) => !n.startsWith('tsx-'))
        .sort(),
    ).toEqual(['pid', 'vitest.json']);

    expect(byName.get('tidy.fixture.ts')?.status).toBe('passed');
  }, 60_000);
});
