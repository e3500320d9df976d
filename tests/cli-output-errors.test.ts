import { spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES } from '../src/report/report-sink.js';
import type { RunFooter } from '../src/run-log/schema.js';
import { type CliResult, FIXTURES, ROOT, readRecords, runDirFrom } from './cli-helpers.js';

/** The real CLI with its standard output on /dev/full: every write to it fails with ENOSPC. */
function withFullStdout(args: string[], stdin?: string): Promise<CliResult> {
  const full = openSync('/dev/full', 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', full, 'pipe'],
  });
  closeSync(full);
  if (stdin !== undefined) child.stdin?.end(stdin);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout: '', stderr })));
}

const LINE =
  'toolgauge: cannot write to standard output: no space left on the device (ENOSPC); the output is incomplete';

describe.skipIf(!existsSync('/dev/full'))('standard output that cannot be written (> /dev/full)', () => {
  let tmp = '';
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'tg-devfull-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('is exit code 3 with one line on stderr, for every command that prints; the run is still complete', async () => {
    const run = join(tmp, 'run');
    const other = join(tmp, 'run-2');
    cpSync(join(FIXTURES, 'run-log-v1', 'shard-1'), run, { recursive: true });
    cpSync(join(FIXTURES, 'run-log-v1', 'shard-2'), other, { recursive: true });
    const mini = join(FIXTURES, 'mini.yaml');
    const commands: { args: string[]; stdin?: string }[] = [
      { args: ['schema'] },
      { args: ['--version'] },
      { args: ['render', '-s', mini, '--case', 'metadata', '-r', 'full-details'] },
      { args: ['parse', '--json', '-'], stdin: '<tool_call>{"name": "a", "arguments": {}}</tool_call>\n' },
      { args: ['eval', '-c', join(FIXTURES, 'mini.config.yaml'), '-q', '--out', join(tmp, 'reports')] },
      {
        args: ['grade', '--suite', mini, '--outputs', '-', '--out', join(tmp, 'graded'), '-q'],
        stdin: '{"case": "metadata", "output": "no call"}\n',
      },
      { args: ['report', run] },
      { args: ['compare', run, run, '--out', join(tmp, 'compare.md')] },
      { args: ['merge', run, other, '--out', join(tmp, 'merged')] },
      { args: ['doctor', '-c', join(FIXTURES, 'mini.config.yaml')] },
      { args: ['init', '--builtin', 'excel', '--dir', join(tmp, 'init'), '--no-eval'] },
    ];
    const results = await Promise.all(commands.map((c) => withFullStdout(c.args, c.stdin)));
    for (const [i, r] of results.entries()) {
      const what = commands[i]?.args.join(' ');
      expect(r.code, `${what}\n${r.stderr}`).toBe(3);
      expect(
        r.stderr.split('\n').filter((l) => l === LINE),
        what,
      ).toHaveLength(1);
      expect(r.stderr, what).not.toMatch(/internal error|\n\s+at /);
    }
    // (regrade, replay and merge print as merge does, through the same printer)
    // The run went on to its end: the log's footer and every report are written.
    const evalResult = results[commands.findIndex((c) => c.args[0] === 'eval')] as CliResult;
    const dir = runDirFrom(evalResult.stderr);
    const records = readRecords(join(dir, 'run.jsonl'));
    expect(records.at(-1) as RunFooter).toMatchObject({ type: 'footer', interrupted: false, completed: 12 });
    for (const file of REPORT_FILES) expect(existsSync(join(dir, file)), file).toBe(true);
  }, 120_000);
});
