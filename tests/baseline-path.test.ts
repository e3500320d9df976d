import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, FIXTURES, finished, ROOT, runCli, runDirFrom } from './cli-helpers.js';

/**
 * `baseline update` run in its own process through its command function, with `flags` as the command line gives
 * them (the `-c/--config` option of `baseline update` reaches the function as `config`).
 */
function baselineUpdate(runDir: string, flags: Record<string, string>, cwd: string): Promise<CliResult> {
  const script = `
    const { baselineUpdateCommand } = await import(${JSON.stringify(join(ROOT, 'src/cli/baseline-command.ts'))});
    try { process.exitCode = await baselineUpdateCommand(${JSON.stringify(runDir)}, ${JSON.stringify(flags)}); }
    catch (e) { process.stderr.write('toolgauge: ' + e.message + '\\n'); process.exitCode = 2; }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finished(child);
}

/**
 * A folder with sub/cfg.yaml (the mini suite; `gate` as given), its runs in sub/runs. It lies inside the checkout's
 * ignored reports/ so that the CLI started there resolves tsx from the checkout's node_modules.
 */
function project(gate = ''): string {
  mkdirSync(join(ROOT, 'reports', 'test-runs'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'reports', 'test-runs', 'baseline-path-'));
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
