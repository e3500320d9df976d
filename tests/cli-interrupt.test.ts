import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter, RunHeader } from '../src/run-log/schema.js';
import { caseCount, FIXTURES, finished, readRecords, runCli, runDirFrom, startCli, waitFor } from './cli-helpers.js';

describe('Ctrl-C during a run', () => {
  it('keeps every finished case, prints how to resume, and --resume completes only what is missing', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tg-sigint-'));
    // 24 cases at 150 ms per simulated reply and 2 in flight: several seconds, so the signal lands mid-run.
    const child = startCli(['eval', '-c', join(FIXTURES, 'slow.config.yaml'), '--out', out]);
    const done = finished(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    await waitFor(() => /→ (\S+)\n/.test(stderr), 30_000);
    const dir = runDirFrom(stderr);
    const log = join(dir, 'run.jsonl');
    await waitFor(() => caseCount(log) >= 3, 30_000);
    child.kill('SIGINT');
    const res = await done;

    expect(res.code).toBe(130);
    expect(res.stderr).toContain('interrupted');
    expect(res.stderr).toContain(`Resume with: toolgauge eval --resume`);
    const records = readRecords(log); // every line parses: nothing torn
    const header = records[0] as RunHeader;
    expect(header.plannedCases).toBe(24);
    const kept = records.filter((r): r is CaseRecord => r.type === 'case');
    expect(kept.length).toBeGreaterThanOrEqual(3);
    expect(kept.length).toBeLessThan(24);
    expect(kept.every((c) => !c.error)).toBe(true); // cases cut off by the signal are not logged
    expect(records.at(-1)).toMatchObject({ type: 'footer', interrupted: true, completed: kept.length });

    const resumed = await runCli(['eval', '--resume', dir]);
    expect(resumed.code).toBe(0);
    const after = readRecords(log);
    const cases = after.filter((r): r is CaseRecord => r.type === 'case');
    expect(cases).toHaveLength(24);
    expect(new Set(cases.map((c) => c.key)).size).toBe(24);
    // The cases finished before the interruption are kept as they were, not re-run.
    for (const k of kept) expect(cases.find((c) => c.key === k.key)?.startedAt).toBe(k.startedAt);
    expect((after[0] as RunHeader).resumedFrom).toBe(dir);
    expect(after.at(-1) as RunFooter).toMatchObject({ type: 'footer', interrupted: false, completed: 24 });
  });
});
