import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { readRecords, runCli, runDirFrom } from './cli-helpers.js';

/*
 * The bundled conversation suites (conversations.config.yaml) agree with their servers and graders: sim:oracle passes
 * every grade of every case under every renderer, and sim:detour, taking each case's other valid path, reaches the
 * same goal state (final-state) while the call list fails it, in every case: each is solvable by more than one path.
 */
describe('bundled conversation suites', () => {
  const out = mkdtempSync(join(tmpdir(), 'tg-conv-suites-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('sim:oracle passes everything; sim:detour passes final-state and fails the call list, in every case', async () => {
    const res = await runCli([
      'eval',
      '-c',
      'conversations.config.yaml',
      '-p',
      'sim:oracle',
      '-p',
      'sim:detour',
      '--out',
      out,
      '-q',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const records = readRecords(join(runDirFrom(res.stderr), 'run.jsonl')).filter(
      (r): r is CaseRecord => r.type === 'case',
    );
    const cases = new Set(records.map((r) => `${r.suite}/${r.case}`));
    expect(cases.size).toBeGreaterThanOrEqual(30);
    for (const suite of ['economist-conversations', 'excel-conversations', 'coder-conversations'])
      expect([...cases].filter((c) => c.startsWith(`${suite}/`)).length, suite).toBeGreaterThanOrEqual(10);
    expect(records).toHaveLength(cases.size * 4 * 2);
    const problems: string[] = [];
    for (const r of records) {
      if (r.error) problems.push(`${r.key}: ${r.error.message}`);
      // every case is a conversation of several user messages, judged by its state
      if (new Set(r.transcript.turns.map((t) => t.userTurn)).size < 2) problems.push(`${r.key}: not a conversation`);
      const by = Object.fromEntries(r.grades.map((g) => [g.grader, g]));
      if (!by['final-state']?.pass) problems.push(`${r.key} final-state: ${by['final-state']?.reason}`);
      if (r.provider === 'sim:oracle')
        for (const g of r.grades) if (!g.pass) problems.push(`${r.key} ${g.grader}: ${g.reason}`);
      if (r.provider === 'sim:detour' && by['correct-arguments']?.pass !== false)
        problems.push(`${r.key}: the other path passed the call list`);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
