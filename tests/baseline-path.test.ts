import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, FIXTURES, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/** `toolgauge baseline update <run> -c <config>` through the real CLI, started in `cwd`. */
function baselineUpdate(runDir: string, flags: { config: string }, cwd: string): Promise<CliResult> {
  return runCli(['baseline', 'update', runDir, '-c', flags.config], cwd);
}

/** A folder with sub/cfg.yaml (the mini suite; `gate` as given), its runs in sub/runs. */
function project(gate = ''): string {
  const dir = tempDir('tg-baseline-path-');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(
    join(dir, 'sub', 'cfg.yaml'),
    [
      `suites: [${JSON.stringify(join(FIXTURES, 'mini.yaml'))}]`,
      'renderers: [names-only]',
      'providers: [sim:oracle]',
      'out: runs',
      gate,
    ].join('\n'),
  );
  return dir;
}

describe('the baseline path: one rule for eval and baseline update (relative to the config file)', () => {
  it('baseline update -c sub/cfg.yaml writes the baseline that eval -c sub/cfg.yaml then compares with', async () => {
    const dir = project();
    const first = await runCli(['eval', '-c', 'sub/cfg.yaml', '-q'], dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('No baseline: regressions not checked.');
    const run = runDirFrom(first.stderr, dir);

    const up = await baselineUpdate(run, { config: 'sub/cfg.yaml' }, dir);
    expect(up.stderr).toContain(`${join('sub', 'reports', 'baseline.json')} ← run ${basename(run)}`);
    expect(up.code).toBe(0);
    expect(existsSync(join(dir, 'sub', 'reports', 'baseline.json'))).toBe(true);
    expect(existsSync(join(dir, 'reports', 'baseline.json'))).toBe(false);

    const second = await runCli(['eval', '-c', 'sub/cfg.yaml', '-q'], dir);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`## Regressions against baseline ${basename(run)} (0)`);
  }, 60_000);

  it("writes the config's own gate.baseline, relative to the config file; gate.baseline: none is refused", async () => {
    const dir = project('gate: { baseline: kept/base.json }');
    const first = await runCli(['eval', '-c', 'sub/cfg.yaml', '-q'], dir);
    const run = runDirFrom(first.stderr, dir);
    const elsewhere = project();
    const up = await baselineUpdate(run, { config: join(dir, 'sub', 'cfg.yaml') }, elsewhere);
    expect(up.code).toBe(0);
    expect(existsSync(join(dir, 'sub', 'kept', 'base.json'))).toBe(true);
    const second = await runCli(['eval', '-c', 'sub/cfg.yaml', '-q'], dir);
    expect(second.stdout).toContain(`## Regressions against baseline ${basename(run)} (0)`);

    const off = project('gate: { baseline: none }');
    const refused = await baselineUpdate(run, { config: 'sub/cfg.yaml' }, off);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('gate.baseline: none');
  }, 60_000);
});
