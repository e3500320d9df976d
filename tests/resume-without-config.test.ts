import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finished, waitFor } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';
import { CLI_WORDS, runCliAnywhere } from './run-cli-anywhere.js';

const tempDir = useTempDirs();

const cases = (log: string) => (existsSync(log) ? (readFileSync(log, 'utf8').match(/"type":"case"/g)?.length ?? 0) : 0);

/**
 * Starts `eval <args>` from a fresh folder with no config file, waits until `atLeast` cases are logged, interrupts it
 * with SIGINT; returns the folder and the run log.
 */
async function interruptedRun(args: string[], atLeast: number): Promise<{ dir: string; log: string }> {
  const dir = tempDir('tg-resume-noconf-');
  const [node, ...rest] = CLI_WORDS as [string, ...string[]];
  const child = spawn(node, [...rest, 'eval', ...args], {
    cwd: dir,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = finished(child);
  const runLog = () => {
    const reports = join(dir, 'reports');
    const run = existsSync(reports) ? readdirSync(reports)[0] : undefined;
    return run ? join(reports, run, 'run.jsonl') : '';
  };
  await waitFor(() => cases(runLog()) >= atLeast, 60_000);
  child.kill('SIGINT');
  const first = await done;
  expect(first.code, first.stderr).toBe(130);
  return { dir, log: runLog() };
}

const SIM = ['--suite', 'economist', '--provider', 'sim:oracle', '--provider-option', 'latencyMs=150'];

describe('eval --resume of a run started without a config file', () => {
  // Regression: resume re-read the run's config file, which a `--suite … --provider …` run never had ("config file
  // not found"); the run's header holds its whole config.
  it('resumes from the header alone and completes the plan', async () => {
    const { dir, log } = await interruptedRun([...SIM, '--renderer', 'full-details', '--concurrency', '1'], 2);
    const before = cases(log);
    const res = await runCliAnywhere(['eval', '--resume', join(log, '..'), '-q'], dir);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('gate: passed');
    const total = cases(log);
    expect(total).toBeGreaterThan(before);
    const planned = JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!).plannedCases as number;
    expect(total).toBe(planned);
  }, 120_000);

  // Regression: the header did not keep --filter / --tag, so a resumed run ran the whole suite, past its plan.
  it('keeps the --filter and --tag the run was started with', async () => {
    const narrow = ['--filter', '*-income-tax-*', '--tag', 'zh'];
    const { dir, log } = await interruptedRun([...SIM, ...narrow, '--renderer', 'full-details', '--repeat', '12'], 2);
    const res = await runCliAnywhere(['eval', '--resume', join(log, '..'), '-q'], dir);
    expect(res.code, res.stderr).toBe(0);
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const ids = new Set(lines.filter((r) => r.type === 'case').map((r) => r.case as string));
    // a case must match the glob and carry the tag: one case, twelve repeats
    expect(lines[0].plannedCases).toBe(12);
    expect(cases(log)).toBe(12);
    expect([...ids]).toEqual(['get-income-tax-rate-zh']);
    expect(lines[0].caseFilter).toEqual({ globs: ['*-income-tax-*'], tags: ['zh'] });
  }, 120_000);
});
