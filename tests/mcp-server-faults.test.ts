import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter } from '../src/contracts/run-log.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { processesWith } from './fixtures/mcp-support/processes.js';

const FAULTY = join(FIXTURES, 'mcp-faulty', 'server.mjs');

/**
 * A user (stdio `command`) server that crashes mid-call and one that never answers, run through the real CLI:
 * the affected case is an infrastructure error, the next case talks to a restarted server, nothing survives.
 */
describe('server pool with a misbehaving stdio server (real CLI, real processes)', () => {
  it('records SERVER_CRASH / SERVER_TIMEOUT, restarts the server for the next case, leaves no orphan', async () => {
    const marker = `tg-faulty-${randomUUID()}`;
    const dir = mkdtempSync(join(tmpdir(), 'tg-faults-'));
    const call = (id: string, tool: string) =>
      `  - id: ${id}\n    prompt: Use the ${tool} tool.\n    expect: { calls: [{ tool: ${tool}, args: {} }] }\n`;
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
        'timeouts: { toolMs: 1000 }',
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
    expect(hang.error!.message).toContain('did not answer hang within 1000 ms');

    // Each fault costs one server: the case after it is answered by a new process.
    const pids = ['c1-whoami', 'c3-whoami', 'c5-whoami'].map(pidOf);
    expect(new Set(pids).size).toBe(3);

    const footer = records.at(-1) as RunFooter;
    expect(footer).toMatchObject({ type: 'footer', completed: 5, errors: 2, interrupted: false });
    // The hung server ignores SIGTERM and stdin EOF: only SIGKILL ends it, and it must have been sent.
    expect(processesWith(marker)).toEqual([]);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
