import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter } from '../src/run-log/schema.js';
import { BIN, FIXTURES, finished, ROOT, readRecords, runCli, runDirFrom, startCli } from './cli-helpers.js';
import { processesWith, waitFor } from './fixtures/mcp-support/processes.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const FAULTY = join(FIXTURES, 'mcp-faulty', 'server.mjs');

/** A run that lasts a while: a shared stdio server (our own `serve mcp excel`) plus a per-case (`isolate`) one. */
function writeSlowRun(marker: string): string {
  const dir = tempDir('tg-orphans-');
  writeFileSync(
    join(dir, 'slow.yaml'),
    `name: slow
servers:
  excel:
    command: [node, ${JSON.stringify(BIN)}, serve, mcp, excel]
    cwd: ${JSON.stringify(ROOT)}
    env: { TOOLGAUGE_TEST_MARKER: ${marker} }
  faulty:
    command: [node, ${JSON.stringify(FAULTY)}, --marker, ${marker}]
    isolate: true
cases:
  - id: read
    prompt: Read Sheet1 of test.xlsx.
    expect: { calls: [{ tool: read_data_from_excel, args: { filepath: [test.xlsx], sheet_name: [Sheet1] } }] }
  - id: whoami
    prompt: Which process are you?
    expect: { calls: [{ tool: whoami, args: {} }] }
`,
  );
  writeFileSync(
    join(dir, 'slow.config.yaml'),
    `suites: [slow.yaml]
renderers: [full-details]
providers: [{ id: sim:oracle, options: { latencyMs: 400 } }]
repeats: 20
concurrency: 2
out: reports
`,
  );
  return join(dir, 'slow.config.yaml');
}

/** Case records already streamed to the run log of the (single) run under the config's `out` folder. */
function finishedCases(config: string): number {
  const reports = join(dirname(config), 'reports');
  if (!existsSync(reports)) return 0;
  return readdirSync(reports)
    .map((run) => join(reports, run, 'run.jsonl'))
    .filter((f) => existsSync(f))
    .reduce((n, f) => n + (readFileSync(f, 'utf8').match(/"type":"case"/g)?.length ?? 0), 0);
}

/**
 * Ctrl-C during an eval: the cases in flight finish and no new one starts (exit 130, footer `interrupted`), and no MCP
 * server process it started survives — whether only the CLI gets the signal (`kill <pid>`) or its whole process group
 * does (Ctrl-C in a terminal). The servers lead their own process groups, so a terminal's Ctrl-C does not end them
 * mid-case; one caught in the instant it is forked, before it has its own group, leaves its case for --resume
 * (tests/mcp-faults-interrupt.test.ts plays that instant): no case is saved with an error either way.
 */
describe('no orphan MCP server processes after SIGINT to a running eval (real processes)', () => {
  for (const target of ['cli', 'group'] as const) {
    it(`SIGINT to the ${target === 'cli' ? 'CLI process only' : 'process group (terminal Ctrl-C)'}`, async () => {
      const marker = `tg-orphan-${randomUUID()}`;
      const config = writeSlowRun(marker);
      const child = spawn(process.execPath, [BIN, 'eval', '-c', config], {
        cwd: ROOT,
        env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: target === 'group',
      });
      const done = finished(child);
      try {
        // Both servers are up (the shared one and a per-case one) and at least one case finished.
        const up = await waitFor(() => processesWith(marker).length >= 2 && finishedCases(config) > 0, 30_000);
        expect(up, 'servers never started or no case finished').toBe(true);
        if (target === 'group') process.kill(-child.pid!, 'SIGINT');
        else child.kill('SIGINT');
        const res = await done;
        expect(res.stderr).toContain('interrupted: no new case starts; the cases in flight finish');
        expect(res.code, res.stderr).toBe(130);
        const records = readRecords(join(runDirFrom(res.stderr), 'run.jsonl'));
        const footer = records.at(-1) as RunFooter;
        expect(footer).toMatchObject({ type: 'footer', interrupted: true });
        const cases = records.filter((r): r is CaseRecord => r.type === 'case');
        expect(cases.length).toBeGreaterThan(0);
        expect(cases.length).toBeLessThan(40);
        for (const c of cases) expect(c.error, c.key).toBeUndefined();
        // The CLI has exited: every server it started must be gone already.
        expect(processesWith(marker)).toEqual([]);
      } finally {
        for (const p of processesWith(marker)) process.kill(p.pid, 'SIGKILL');
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });
  }
});

/** A stdio server that starts processes of its own: they go with it (its process group), at the end of a run. */
describe('no orphan processes of a stdio server that spawns children (real processes)', () => {
  it("a run that ends normally leaves neither the server nor the server's child running", async () => {
    const marker = `tg-orphan-child-${randomUUID()}`;
    const dir = tempDir('tg-orphans-');
    writeFileSync(
      join(dir, 'spawner.yaml'),
      `name: spawner
servers:
  faulty:
    command: [node, ${JSON.stringify(FAULTY)}, --marker, ${marker}]
cases:
  - id: spawn
    prompt: Start a child.
    expect: { calls: [{ tool: spawn_child, args: {} }] }
`,
    );
    writeFileSync(
      join(dir, 'spawner.config.yaml'),
      'suites: [spawner.yaml]\nrenderers: [full-details]\nproviders: [sim:oracle]\nout: reports\n',
    );
    try {
      const res = await runCli(['eval', '-c', join(dir, 'spawner.config.yaml')]);
      expect(res.code, res.stderr).toBe(0);
      const records = readRecords(join(runDirFrom(res.stderr), 'run.jsonl'));
      const c = records.find((r): r is CaseRecord => r.type === 'case')!;
      const grandchild = Number(/child=(\d+)/.exec(c.transcript.turns[0]!.executed[0]!.result)![1]);
      expect(grandchild).toBeGreaterThan(0);
      // The child (its command line carries the marker) ignores SIGTERM and has no stdin to lose: only a SIGKILL to
      // the server's group ends it. (Killed, it may linger as a zombie nobody reaps: processesWith skips those.)
      expect(processesWith(marker)).toEqual([]);
    } finally {
      for (const p of processesWith(marker)) process.kill(p.pid, 'SIGKILL');
    }
  });
});

/**
 * A command with no interrupt handling of its own dies of SIGINT: the servers it started (each in its own process
 * group, out of reach of a terminal's Ctrl-C) die with it, even one that ignores SIGTERM and stdin EOF.
 */
describe('no orphan after SIGINT kills a command that started a server (real processes)', () => {
  it('SIGINT to `schemas diff` while its server hangs on initialize', async () => {
    const marker = `tg-orphan-start-${randomUUID()}`;
    const dir = tempDir('tg-orphans-');
    writeFileSync(
      join(dir, 'stuck.yaml'),
      `name: stuck
servers:
  faulty:
    command: [node, ${JSON.stringify(FAULTY)}, --marker, ${marker}]
    env: { FAULTY_HANG_ON: initialize, FAULTY_IGNORE_SIGTERM: '1' }
cases:
  - id: one
    prompt: Which process are you?
    expect: { calls: [{ tool: whoami, args: {} }] }
`,
    );
    writeFileSync(
      join(dir, 'stuck.config.yaml'),
      'suites: [stuck.yaml]\nrenderers: [full-details]\nproviders: [sim:oracle]\ntimeouts: { toolMs: 120000 }\n',
    );
    const child = startCli(['schemas', 'diff', '-c', join(dir, 'stuck.config.yaml')]);
    const done = finished(child);
    try {
      expect(await waitFor(() => processesWith(marker).length === 1, 30_000), 'the server never started').toBe(true);
      child.kill('SIGINT');
      const res = await done;
      expect(res.signal ?? res.code).toBeTruthy(); // it ended (of the signal), without waiting out the start
      // SIGKILL was sent to the server's group as the CLI exited; the kernel may take a moment to end a Node process.
      const gone = await waitFor(() => processesWith(marker).length === 0, 5_000);
      expect(gone, `left running: ${JSON.stringify(processesWith(marker))}`).toBe(true);
    } finally {
      for (const p of processesWith(marker)) process.kill(p.pid, 'SIGKILL');
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

describe('no orphan after the CLI is killed outright (real processes)', () => {
  // SIGKILL runs no handler and no exit hook; a server that ignores the end of its stdin (here: one holding a hung
  // call open with a timer) would run on under PID 1. The reaper the CLI started with its first server ends it.
  it('SIGKILL to an eval while its stdio server holds a hung call', async () => {
    const marker = `tg-orphan-${randomUUID()}`;
    const dir = tempDir('tg-orphans-kill-');
    const calls = join(dir, 'calls');
    writeFileSync(
      join(dir, 'hang.yaml'),
      `name: hang
servers:
  faulty:
    command: [node, ${JSON.stringify(FAULTY)}, --marker, ${marker}]
    env: { FAULTY_CALL_LOG: ${JSON.stringify(calls)} }
cases:
  - id: hang
    prompt: Use the hang tool.
    expect: { calls: [{ tool: hang, args: {} }] }
`,
    );
    const config = join(dir, 'hang.config.yaml');
    writeFileSync(
      config,
      'suites: [hang.yaml]\nrenderers: [full-details]\nproviders: [sim:oracle]\ntimeouts: { toolMs: 600000, caseMs: 600000 }\nout: reports\n',
    );
    const child = startCli(['eval', '-c', config]);
    const done = finished(child);
    try {
      const hung = await waitFor(() => existsSync(calls) && readFileSync(calls, 'utf8').includes('hang'), 30_000);
      expect(hung, 'the hang call never reached the server').toBe(true);
      expect(processesWith(marker).length).toBe(1);
      child.kill('SIGKILL');
      await done;
      const gone = await waitFor(() => processesWith(marker).length === 0, 10_000);
      expect(gone, `left running: ${JSON.stringify(processesWith(marker))}`).toBe(true);
    } finally {
      for (const p of processesWith(marker)) process.kill(p.pid, 'SIGKILL');
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
