import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter } from '../src/run-log/schema.js';
import { FIXTURES, finished, readRecords, runDirFrom, startCli } from './cli-helpers.js';
import { processesWith, waitFor } from './fixtures/mcp-support/processes.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const FAULTY = join(FIXTURES, 'mcp-faulty', 'server.mjs');

/**
 * A run whose third case calls a tool that never answers, with a long toolMs: c1 spawns a grandchild of the server
 * (same process group), c2 finishes, c3 hangs. The server and its grandchild ignore SIGTERM and stdin EOF. Returns
 * the config and the file the server logs each call to.
 */
function writeHangingRun(marker: string) {
  const dir = tempDir('tg-mcp-sigint-');
  const calls = join(dir, 'calls.log');
  const call = (id: string, tool: string) =>
    `  - id: ${id}\n    prompt: Use the ${tool} tool.\n    expect: { calls: [{ tool: ${tool}, args: {} }] }\n`;
  writeFileSync(
    join(dir, 'hang.yaml'),
    [
      'name: hang',
      'servers:',
      '  faulty:',
      `    command: [node, ${JSON.stringify(FAULTY)}, --marker, ${marker}]`,
      `    env: ${JSON.stringify({ FAULTY_IGNORE_SIGTERM: '1', FAULTY_CALL_LOG: calls })}`,
      'cases:',
      '',
    ].join('\n') +
      call('c1-spawn', 'spawn_child') +
      call('c2-whoami', 'whoami') +
      call('c3-hang', 'hang'),
  );
  writeFileSync(
    join(dir, 'hang.config.yaml'),
    [
      'suites: [hang.yaml]',
      'renderers: [full-details]',
      'providers: [sim:oracle]',
      'concurrency: 1',
      'timeouts: { toolMs: 120000 }',
      'out: reports',
      '',
    ].join('\n'),
  );
  const hanging = () => existsSync(calls) && readFileSync(calls, 'utf8').split('\n').includes('hang');
  return { config: join(dir, 'hang.config.yaml'), hanging };
}

/** Ctrl-C while a tool call hangs (real CLI, real stdio server that ignores SIGTERM, real grandchild). */
describe('Ctrl-C during a hung MCP tool call', () => {
  it('the first SIGINT waits for the call, the second ends it at once: finished cases kept, interrupted footer, reports, exit 130, no orphan', async () => {
    const marker = `tg-mcp-sigint-${randomUUID()}`;
    const run = writeHangingRun(marker);
    const child = startCli(['eval', '-c', run.config]);
    const done = finished(child);
    try {
      expect(await waitFor(run.hanging, 30_000), 'the hang call never reached the server').toBe(true);
      expect(processesWith(marker)).toHaveLength(2); // the server and its grandchild
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      // The first Ctrl-C lets the case in flight go on (its tool call may still answer within toolMs)…
      child.kill('SIGINT');
      expect(await waitFor(() => stderr.includes('interrupted: no new case starts'), 30_000)).toBe(true);
      expect(child.exitCode).toBeNull();
      // …the second aborts it.
      const t0 = Date.now();
      child.kill('SIGINT');
      const res = await done;
      // Waiting out toolMs (120 s) would hit the test timeout; closing the server may take its grace periods.
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(res.code, res.stderr).toBe(130);
      expect(res.stderr).toContain('interrupted: aborting the cases in flight');
      const runDir = runDirFrom(res.stderr);
      const records = readRecords(join(runDir, 'run.jsonl'));
      const cases = records.filter((r): r is CaseRecord => r.type === 'case');
      expect(cases.map((c) => c.case)).toEqual(['c1-spawn', 'c2-whoami']);
      for (const c of cases) expect(c.error, c.case).toBeUndefined();
      expect(records.at(-1) as RunFooter).toMatchObject({ type: 'footer', interrupted: true, completed: 2 });
      expect(existsSync(join(runDir, 'report.html'))).toBe(true);
      // SIGKILL went to the server's group before the CLI exited; the kernel may take a moment to end its processes.
      const gone = await waitFor(() => processesWith(marker).length === 0, 5_000);
      expect(gone, `left running: ${JSON.stringify(processesWith(marker))}`).toBe(true);
    } finally {
      for (const p of processesWith(marker)) process.kill(p.pid, 'SIGKILL');
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('a third SIGINT quits at once and kills the server with its process group', async () => {
    const marker = `tg-mcp-sigint2-${randomUUID()}`;
    const run = writeHangingRun(marker);
    const child = startCli(['eval', '-c', run.config]);
    const done = finished(child);
    try {
      expect(await waitFor(run.hanging, 30_000), 'the hang call never reached the server').toBe(true);
      expect(processesWith(marker)).toHaveLength(2);
      child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGINT');
      // The second one is being handled (the server is closed politely, and ignores it): the third quits.
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGINT');
      const res = await done;
      expect(res.code, res.stderr).toBe(130);
      // Nothing the CLI started outlives it: not the server (which ignores SIGTERM), not the server's own child.
      // SIGKILL went to the server's group as the CLI exited; the kernel may take a moment to end its processes.
      const gone = await waitFor(() => processesWith(marker).length === 0, 5_000);
      expect(gone, `left running: ${JSON.stringify(processesWith(marker))}`).toBe(true);
    } finally {
      for (const p of processesWith(marker)) process.kill(p.pid, 'SIGKILL');
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

/**
 * A stdio server leads its own process group, out of reach of a terminal's Ctrl-C, from just after it is forked: a
 * Ctrl-C in that instant ends it as it starts. The faulty server plays it deterministically: the second one started (the
 * first lists the tools before the run, the second is the first case's) sends SIGINT to the CLI and to itself before
 * answering initialize. That case is not saved with an error, but left for --resume.
 */
describe('Ctrl-C that ends a stdio server as it starts', () => {
  it('leaves its case for --resume (no SERVER_START error saved), and --resume runs it', async () => {
    const dir = tempDir('tg-mcp-sigint-start-');
    const pids = join(dir, 'pids');
    writeFileSync(
      join(dir, 'start.yaml'),
      [
        'name: start',
        'servers:',
        '  faulty:',
        `    command: [node, ${JSON.stringify(FAULTY)}]`,
        `    env: ${JSON.stringify({ FAULTY_PID_FILE: pids, FAULTY_SIGINT_ON_START: '2' })}`,
        '    isolate: true',
        'cases:',
        '  - { id: c1, prompt: Which process are you?, expect: { calls: [{ tool: whoami, args: {} }] } }',
        '  - { id: c2, prompt: Which process are you?, expect: { calls: [{ tool: whoami, args: {} }] } }',
        '',
      ].join('\n'),
    );
    const config = join(dir, 'start.config.yaml');
    writeFileSync(
      config,
      'suites: [start.yaml]\nrenderers: [full-details]\nproviders: [sim:oracle]\nconcurrency: 1\nout: reports\n',
    );
    const res = await finished(startCli(['eval', '-c', config]));
    expect(readFileSync(pids, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(res.code, res.stderr).toBe(130);
    expect(res.stderr).toContain('interrupted: no new case starts');
    const runDir = runDirFrom(res.stderr);
    const records = readRecords(join(runDir, 'run.jsonl'));
    expect(records.filter((r) => r.type === 'case')).toEqual([]);
    expect(records.at(-1) as RunFooter).toMatchObject({ type: 'footer', interrupted: true, completed: 0, errors: 0 });

    const resumed = await finished(startCli(['eval', '--resume', runDir]));
    expect(resumed.code, resumed.stderr).toBe(0);
    const cases = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    expect(cases.map((c) => c.case).sort()).toEqual(['c1', 'c2']);
    for (const c of cases) expect(c.error, c.case).toBeUndefined();
  });
});
