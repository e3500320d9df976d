import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, FIXTURES, finished, startCli } from './cli-helpers.js';

/** The CLI, killed if it has not ended within `ms` (Node's recursive mkdir spun forever under /proc). */
async function guarded(args: string[], ms = 40_000): Promise<CliResult & { timedOut: boolean }> {
  const child = startCli(args);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, ms);
  try {
    return { ...(await finished(child)), timedOut };
  } finally {
    clearTimeout(timer);
  }
}

/** A read-only file system of our own (a tmpfs mounted read-only), or undefined where mounting is not allowed. */
function readOnlyMount(at: string): string | undefined {
  mkdirSync(at, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', at], { stdio: 'ignore' });
    return at;
  } catch {
    return undefined;
  }
}

describe('an output folder that cannot be written is refused before the run (exit 2, one line)', () => {
  let tmp = '';
  let file = '';
  const runDir = join(FIXTURES, 'run-log-v1', 'shard-1');
  let readOnly: string | undefined;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'tg-outdir-'));
    file = join(tmp, 'a-file');
    writeFileSync(file, 'not a folder\n');
    readOnly = readOnlyMount(join(tmp, 'ro'));
    if (!readOnly)
      console.warn('cli-output-folder: cannot mount a tmpfs here; the read-only file system case is skipped');
  });
  afterAll(() => {
    if (readOnly) execFileSync('umount', [readOnly]);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('for every command that writes a folder or a file: /proc, a file in the way, a read-only file system', async () => {
    const mini = join(FIXTURES, 'mini.config.yaml');
    const cases: { args: string[]; flag: string; problem: RegExp }[] = [
      { args: ['eval', '-c', mini, '--out', '/proc/toolgauge-x'], flag: '--out /proc/toolgauge-x', problem: /\/proc/ },
      {
        args: ['grade', '--suite', join(FIXTURES, 'mini.yaml'), '--outputs', file, '--out', join(file, 'sub')],
        flag: `--out ${join(file, 'sub')}`,
        problem: /a-file is a file, not a folder/,
      },
      { args: ['regrade', runDir, '--out', '/proc/toolgauge-x'], flag: '--out', problem: /\/proc/ },
      readOnly
        ? { args: ['merge', runDir, '--out', readOnly], flag: '--out', problem: /read-only \(EROFS\)/ }
        : { args: ['merge', runDir, '--out', file], flag: `--out ${file}`, problem: /is a file, not a folder/ },
      { args: ['init', '--builtin', 'excel', '--dir', '/proc/toolgauge-x'], flag: '--dir', problem: /\/proc/ },
      {
        args: ['export', 'promptfoo', runDir, '-o', join(file, 'p.json')],
        flag: '--out',
        problem: /is a file, not a folder/,
      },
    ];
    if (readOnly) {
      cases.push({
        args: ['eval', '-c', mini, '--out', join(readOnly, 'reports')],
        flag: '--out',
        problem: /read-only \(EROFS\)/,
      });
    }
    const results = await Promise.all(cases.map((c) => guarded(c.args)));
    for (const [i, r] of results.entries()) {
      const what = cases[i]?.args.join(' ');
      expect(r.timedOut, what).toBe(false);
      expect(r.code, `${what}\n${r.stderr}`).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, what).toHaveLength(1);
      expect(lines[0], what).toContain(`toolgauge: ${cases[i]?.flag}`);
      expect(lines[0], what).toMatch(cases[i]?.problem as RegExp);
      expect(lines[0], what).not.toMatch(/internal error/);
    }
    // nothing was written where the checks refused
    expect(readdirSync(tmp).sort()).toEqual(readOnly ? ['a-file', 'ro'] : ['a-file']);
    expect(existsSync('/proc/toolgauge-x')).toBe(false);
  }, 90_000);
});
