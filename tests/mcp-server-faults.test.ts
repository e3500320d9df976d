import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { processesWith } from './fixtures/mcp-support/processes.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const FAULTY = join(FIXTURES, 'mcp-faulty', 'server.mjs');

/** A one-line case that expects a call of `tool`. */
const call = (id: string, tool: string) =>
  `  - id: ${id}\n    prompt: Use the ${tool} tool.\n    expect: { calls: [{ tool: ${tool}, args: {} }] }\n`;

/**
 * Writes a suite whose one (shared) server is the faulty fixture with `env`, and its config; returns the config path.
 * Every server started appends its pid to `<dir>/pids`.
 */
function writeFaultyRun(
  marker: string,
  env: Record<string, string>,
  cases: string,
  toolMs: number,
  serverStartMs = toolMs,
  gate = 'gate: { maxInfraErrorRate: 1 }',
) {
  const dir = tempDir('tg-faults-');
  const vars = { ...env, FAULTY_PID_FILE: join(dir, 'pids') };
  writeFileSync(
    join(dir, 'faulty.yaml'),
    [
      'name: faulty',
      'servers:',
      '  faulty:',
      `    command: [node, ${JSON.stringify(FAULTY)}, --marker, ${marker}]`,
      `    env: ${JSON.stringify(vars)}`,
      'cases:',
      '',
    ].join('\n') + cases,
  );
  const config = join(dir, 'faulty.config.yaml');
  writeFileSync(
    config,
    [
      'suites: [faulty.yaml]',
      'renderers: [full-details]',
      'providers: [sim:oracle]',
      'concurrency: 1',
      `timeouts: { toolMs: ${toolMs}, serverStartMs: ${serverStartMs} }`,
      'out: reports',
      gate,
      '',
    ].join('\n'),
  );
  return { config, pids: () => readFileSync(join(dir, 'pids'), 'utf8').trim().split('\n').map(Number) };
}

/** The case records of a finished run, by case id, and its footer. */
function runRecords(stderr: string) {
  const records = readRecords(join(runDirFrom(stderr), 'run.jsonl'));
  const cases = new Map(
    records.filter((r): r is CaseRecord => r.type === 'case').map((c) => [c.case, c] as [string, CaseRecord]),
  );
  return { cases, footer: records.at(-1) as RunFooter };
}

/**
 * A user (stdio `command`) server that crashes mid-call and one that never answers, run through the real CLI:
 * the affected case is an infrastructure error, the next case talks to a restarted server, nothing survives.
 */
describe('server pool with a misbehaving stdio server (real CLI, real processes)', () => {
  it('records SERVER_CRASH / SERVER_TIMEOUT, restarts the server for the next case, leaves no orphan', async () => {
    const marker = `tg-faulty-${randomUUID()}`;
    const dir = tempDir('tg-faults-');
    writeFileSync(
      join(dir, 'faulty.yaml'),
      [
        'name: faulty',
        'servers:',
        '  faulty:',
        `    command: [node, ${JSON.stringify(FAULTY)}, --marker, ${marker}]`,
        "    env: { FAULTY_IGNORE_SIGTERM: '1' }",
        'cases:',
        '',
      ].join('\n') +
        call('c1-whoami', 'whoami') +
        call('c2-crash', 'crash') +
        call('c3-whoami', 'whoami') +
        call('c4-hang', 'hang') +
        call('c5-whoami', 'whoami'),
    );
    writeFileSync(
      join(dir, 'faulty.config.yaml'),
      [
        'suites: [faulty.yaml]',
        'renderers: [full-details]',
        'providers: [sim:oracle]',
        'concurrency: 1',
        // toolMs also bounds each server start: room for a node process to start on a busy machine.
        'timeouts: { toolMs: 3000 }',
        'out: reports',
        'gate: { maxInfraErrorRate: 1 }',
        '',
      ].join('\n'),
    );

    const res = await runCli(['eval', '-c', join(dir, 'faulty.config.yaml')]);
    expect(res.code, res.stderr).toBe(0);
    const records = readRecords(join(runDirFrom(res.stderr), 'run.jsonl'));
    const cases = new Map(
      records.filter((r): r is CaseRecord => r.type === 'case').map((c) => [c.case, c] as [string, CaseRecord]),
    );
    expect([...cases.keys()]).toEqual(['c1-whoami', 'c2-crash', 'c3-whoami', 'c4-hang', 'c5-whoami']);
    const pidOf = (id: string) => {
      const c = cases.get(id)!;
      expect(c.error, id).toBeUndefined();
      const executed = c.transcript.turns[0]!.executed[0]!;
      expect(executed).toMatchObject({ server: 'faulty', tool: 'whoami', isError: false });
      return Number(/pid=(\d+)/.exec(executed.result)![1]);
    };

    const crash = cases.get('c2-crash')!;
    expect(crash.error).toMatchObject({ code: 'SERVER_CRASH' });
    expect(crash.error!.message).toContain("MCP server 'faulty' failed during crash");
    expect(crash.grades).toEqual([]);
    const hang = cases.get('c4-hang')!;
    expect(hang.error).toMatchObject({ code: 'SERVER_TIMEOUT' });
    expect(hang.error!.message).toContain('did not answer hang within 3000 ms');

    // Each fault costs one server: the case after it is answered by a new process.
    const pids = ['c1-whoami', 'c3-whoami', 'c5-whoami'].map(pidOf);
    expect(new Set(pids).size).toBe(3);

    const footer = records.at(-1) as RunFooter;
    expect(footer).toMatchObject({ type: 'footer', completed: 5, errors: 2, interrupted: false });
    // The hung server ignores SIGTERM and stdin EOF: only SIGKILL ends it, and it must have been sent.
    expect(processesWith(marker)).toEqual([]);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });

  it('a server that never answers initialize: started once, the wait announced, every case a SERVER_TIMEOUT naming timeouts.serverStartMs', async () => {
    const marker = `tg-faulty-${randomUUID()}`;
    const run = writeFaultyRun(
      marker,
      { FAULTY_HANG_ON: 'initialize' },
      call('c1', 'whoami') + call('c2', 'whoami') + call('c3', 'whoami'),
      1500,
      1500,
      'gate: { maxInfraErrorRate: 0.5 }',
    );
    // Without a bound of its own, each case waited the SDK's 60 s for initialize: the messages name the bound. The
    // check before the run and the run each started the server and waited out the timeout, in silence.
    const res = await runCli(['eval', '-c', run.config]);
    // Three infrastructure errors of three cases: over the error budget.
    expect(res.code, res.stderr).toBe(3);
    expect(res.stderr).toContain('gate: 3/3 cases hit infrastructure errors (100.0% > 50.0% allowed)');
    const waiting =
      /^toolgauge: MCP server 'faulty' has not answered initialize after 0\.\d s; waiting up to 1\.5 s \(timeouts\.serverStartMs\)$/gm;
    expect(res.stderr.match(waiting)).toHaveLength(1);
    const given =
      "MCP server 'faulty' did not answer initialize within 1500 ms (timeouts.serverStartMs); not started again in this run";
    expect(res.stderr).toContain(`toolgauge: ${given}: the cases that need it are infrastructure errors (`);
    // Said before the run's first line: the run itself waited for nothing.
    expect(res.stderr.indexOf(given)).toBeLessThan(res.stderr.indexOf(' cases (1 suite(s)'));
    const { cases, footer } = runRecords(res.stderr);
    expect([...cases.keys()]).toEqual(['c1', 'c2', 'c3']);
    for (const id of ['c1', 'c2', 'c3'])
      expect(cases.get(id)!.error).toEqual({ code: 'SERVER_TIMEOUT', message: given });
    expect(footer).toMatchObject({ type: 'footer', completed: 3, errors: 3, interrupted: false });
    expect(run.pids()).toHaveLength(1);
    expect(processesWith(marker)).toEqual([]);
  });

  it('a server that never answers tools/list: SERVER_TIMEOUT naming tools/list and the timeout', async () => {
    const marker = `tg-faulty-${randomUUID()}`;
    const run = writeFaultyRun(
      marker,
      { FAULTY_HANG_ON: 'tools/list' },
      call('c1', 'whoami') + call('c2', 'whoami'),
      1500,
    );
    const res = await runCli(['eval', '-c', run.config]);
    const { cases } = runRecords(res.stderr);
    for (const id of ['c1', 'c2']) {
      expect(cases.get(id)!.error).toEqual({
        code: 'SERVER_TIMEOUT',
        message:
          "MCP server 'faulty' did not answer tools/list within 1500 ms (timeouts.serverStartMs); not started again in this run",
      });
    }
    expect(res.stderr).toMatch(/MCP server 'faulty' has not answered tools\/list after 0\.\d s; waiting up to 1\.5 s/);
    expect(run.pids()).toHaveLength(1);
    expect(processesWith(marker)).toEqual([]);
  });

  it('a tools/list that never ends is a SERVER_BAD_RESPONSE naming the bound; a long one and many calls print no warning', async () => {
    const marker = `tg-faulty-${randomUUID()}`;
    // a tool of the 12th page, called 12 times in one reply: each request of a case once added a listener to its signal
    const twelve = Array.from({ length: 12 }, () => '{ tool: whoami_12, args: {} }').join(', ');
    const long = writeFaultyRun(
      marker,
      { FAULTY_PAGES: '12' },
      `  - { id: c1, prompt: p, expect: { calls: [${twelve}] } }\n`,
      20_000,
    );
    const endless = writeFaultyRun(marker, { FAULTY_PAGES: 'endless' }, call('c1', 'whoami'), 20_000);
    const [ok, bad] = await Promise.all([runCli(['eval', '-c', long.config]), runCli(['eval', '-c', endless.config])]);
    expect(ok.code, ok.stderr).toBe(0);
    const c1 = runRecords(ok.stderr).cases.get('c1');
    expect(c1?.error).toBeUndefined();
    expect(c1?.transcript.turns[0]?.executed.map((e) => e.result)).toEqual(
      Array(12).fill(expect.stringMatching(/^pid=/)),
    );
    expect(runRecords(bad.stderr).cases.get('c1')?.error).toEqual({
      code: 'SERVER_BAD_RESPONSE',
      message:
        "MCP server 'faulty' listed more than 10000 tools in tools/list: the listing was stopped (a server's catalog is read up to 10000 tools in 1000 pages)",
    });
    for (const res of [ok, bad]) expect(res.stderr).not.toContain('MaxListenersExceededWarning');
    expect(processesWith(marker)).toEqual([]);
  });

  it('a tool whose input schema nests thousands deep is a SERVER_BAD_RESPONSE naming the tool, not a stack overflow', async () => {
    const marker = `tg-faulty-${randomUUID()}`;
    const run = writeFaultyRun(marker, { FAULTY_DEEP_SCHEMA: '2000' }, call('c1', 'whoami'), 20_000);
    // native-functions walks each schema to normalize it: it ran out of stack (INTERNAL) on this one
    writeFileSync(run.config, readFileSync(run.config, 'utf8').replace('[full-details]', '[native-functions]'));
    const res = await runCli(['eval', '-c', run.config, '-q']);
    expect(runRecords(res.stderr).cases.get('c1')?.error).toEqual({
      code: 'SERVER_BAD_RESPONSE',
      message:
        "MCP server 'faulty' lists the tool 'deep' with an input schema nested deeper than 127 levels, past what toolgauge reads: the listing was stopped",
    });
    expect(processesWith(marker)).toEqual([]);
  });

  it('a server slower to start than any tool call is waited for up to timeouts.serverStartMs, not toolMs', async () => {
    const marker = `tg-faulty-${randomUUID()}`;
    // Starts in 1.5 s; tool calls are bounded at 0.5 s. Before serverStartMs, the start was bounded by toolMs and every
    // case of the run failed with SERVER_TIMEOUT.
    const run = writeFaultyRun(marker, { FAULTY_START_DELAY_MS: '1500' }, call('c1', 'whoami'), 500, 20_000);
    const res = await runCli(['eval', '-c', run.config]);
    expect(res.code, res.stderr).toBe(0);
    const { cases } = runRecords(res.stderr);
    expect(cases.get('c1')!.error).toBeUndefined();
    expect(processesWith(marker)).toEqual([]);
  });

  it('a tool result over the 10 MiB stdio limit is reported as such, and the next case gets a working server', async () => {
    const marker = `tg-faulty-${randomUUID()}`;
    const run = writeFaultyRun(
      marker,
      { FAULTY_IGNORE_SIGTERM: '1' },
      call('c1-whoami', 'whoami') + call('c2-huge', 'huge') + call('c3-whoami', 'whoami'),
      // a bound only: 10 MiB through a pipe took over 10 s on a machine busy with other runs
      30_000,
    );
    const res = await runCli(['eval', '-c', run.config]);
    expect(res.code, res.stderr).toBe(0);
    const { cases, footer } = runRecords(res.stderr);
    const huge = cases.get('c2-huge')!;
    expect(huge.error?.message).toContain(
      "MCP server 'faulty' sent a message over the 10485760-byte (10 MiB) stdio limit during huge",
    );
    expect(huge.error?.message).toContain('the server did not crash');
    expect(huge.error?.code).toBe('TOOL_RESULT_TOO_LARGE');
    expect(huge.error?.message).not.toContain('Connection closed');
    const answered = (id: string) => {
      const c = cases.get(id)!;
      expect(c.error, id).toBeUndefined();
      return c.transcript.turns[0]!.executed[0]!.result;
    };
    expect(answered('c1-whoami')).not.toBe(answered('c3-whoami')); // a new server answered after the fault
    expect(footer).toMatchObject({ completed: 3, errors: 1 });
    expect(processesWith(marker)).toEqual([]);
  });
});
