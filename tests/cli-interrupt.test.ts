import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord, RunFooter, RunHeader } from '../src/run-log/schema.js';
import { caseCount, FIXTURES, finished, readRecords, runCli, runDirFrom, startCli, waitFor } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/** A run whose cases take seconds each (2 s simulated turns, 3 in flight): a signal lands while they are in flight. */
function slowRun(): { config: string; out: string } {
  const out = tempDir('tg-sigint-slow-');
  const config = join(out, 'slower.config.yaml');
  writeFileSync(
    config,
    [
      `suites: [${JSON.stringify(join(FIXTURES, 'mini.yaml'))}]`,
      'renderers: [names-only, full-details]',
      'providers: [{ id: sim:oracle, options: { latencyMs: 2000 } }]',
      'repeats: 4',
      'concurrency: 3',
      'out: reports',
      '',
    ].join('\n'),
  );
  return { config, out };
}

/** Starts a slow eval and sends SIGINT `times` times once its cases are in flight (the log has its header). */
async function interruptSlowRun(times: 1 | 2) {
  const { config } = slowRun();
  const child = startCli(['eval', '-c', config]);
  const done = finished(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  await waitFor(() => /→ (\S+)\n/.test(stderr), 30_000);
  const log = join(runDirFrom(stderr), 'run.jsonl');
  await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('"type":"header"'), 30_000);
  const before = caseCount(log);
  child.kill('SIGINT');
  if (times === 2) {
    await waitFor(() => stderr.includes('interrupted: no new case starts'), 30_000);
    child.kill('SIGINT');
  }
  const res = await done;
  return { res, log, before };
}

describe('Ctrl-C in two stages', () => {
  it('the first lets the cases in flight finish and saves them, starts no new case, writes the reports, exits 130', async () => {
    const { res, log, before } = await interruptSlowRun(1);
    expect(res.code, res.stderr).toBe(130);
    expect(res.stderr).toContain(
      'interrupted: no new case starts; the cases in flight finish (within their timeouts) and are saved',
    );
    const records = readRecords(log);
    const kept = records.filter((r): r is CaseRecord => r.type === 'case');
    // the (up to 3) cases in flight when the signal came were finished and saved; no other case was started
    expect(kept.length).toBeGreaterThan(before);
    expect(kept.length).toBeLessThanOrEqual(before + 3);
    expect(kept.every((c) => !c.error)).toBe(true);
    expect(records.at(-1)).toMatchObject({ type: 'footer', interrupted: true, completed: kept.length });
    expect(res.stderr).toContain(`Run interrupted: ${kept.length} finished cases are saved`);
    expect(existsSync(join(log, '..', 'summary.md'))).toBe(true);
  }, 60_000);

  it('the second aborts the cases in flight: they are not saved (--resume runs them), the reports are written', async () => {
    const { res, log, before } = await interruptSlowRun(2);
    expect(res.code, res.stderr).toBe(130);
    expect(res.stderr).toContain('interrupted: aborting the cases in flight (they are not saved: --resume runs them)');
    const records = readRecords(log);
    const kept = records.filter((r): r is CaseRecord => r.type === 'case');
    expect(kept.length).toBe(before);
    expect(records.at(-1)).toMatchObject({ type: 'footer', interrupted: true, completed: before });
    expect(existsSync(join(log, '..', 'summary.md'))).toBe(true);
  }, 60_000);
});

describe('Ctrl-C during a run', () => {
  it('keeps every finished case, prints how to resume, and --resume completes only what is missing', async () => {
    const out = tempDir('tg-sigint-');
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

    // A bad line in the log stops the resume before anything runs, and leaves the log as it was.
    const copy = join(out, 'corrupt-copy');
    cpSync(dir, copy, { recursive: true });
    const copyLog = join(copy, 'run.jsonl');
    const copyLines = readFileSync(copyLog, 'utf8').split('\n');
    const at = copyLines.findIndex((l) => l.includes('"type":"case"'));
    copyLines[at] = '{"type":"case",';
    writeFileSync(copyLog, copyLines.join('\n'));
    const before = readFileSync(copyLog, 'utf8');
    const refused = await runCli(['eval', '--resume', copy]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`run.jsonl:${at + 1}: not a JSON record`);
    expect(readFileSync(copyLog, 'utf8')).toBe(before);
    expect(existsSync(`${copyLog}.resuming`)).toBe(false);

    // Records that ended in an infrastructure fault are not finished: one for a case not yet run, and one repeating a
    // finished case's key. Resuming drops both, reruns the first, and keeps the finished one once.
    const errored = withErrorRecords(log, new Set(kept.map((k) => k.key)));
    const injected = readRecords(log).filter((r): r is CaseRecord => r.type === 'case' && r.error !== undefined);
    expect(injected.map((r) => r.key)).toEqual([errored, kept[0]?.key]);

    const resumed = await runCli(['eval', '--resume', dir]);
    expect(resumed.code).toBe(0);
    const after = readRecords(log);
    const cases = after.filter((r): r is CaseRecord => r.type === 'case');
    expect(cases).toHaveLength(24);
    expect(new Set(cases.map((c) => c.key)).size).toBe(24);
    expect(cases.every((c) => !c.error)).toBe(true);
    // The cases finished before the interruption are kept as they were, not re-run.
    for (const k of kept) expect(cases.find((c) => c.key === k.key)?.startedAt).toBe(k.startedAt);
    expect(cases.find((c) => c.key === errored)?.startedAt).not.toBe(kept[0]?.startedAt);
    expect((after[0] as RunHeader).resumedFrom).toBe(dir);
    expect(after.filter((r) => r.type === 'header')).toHaveLength(1);
    expect(after.at(-1) as RunFooter).toMatchObject({ type: 'footer', interrupted: false, completed: 24 });
    expect(existsSync(`${log}.resuming`)).toBe(false);
    // The reports count the kept cases with the new ones.
    const runJson = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { total: number; errors: number };
    expect(runJson).toMatchObject({ total: 24, errors: 0 });
  });
});

/**
 * Inserts, before the footer of an interrupted run's log, two finished-with-an-error copies of a case line: one under
 * the key of a planned trial not yet run (returned), one under its own key. Raw lines, so their blob references stay.
 */
function withErrorRecords(log: string, keptKeys: ReadonlySet<string>): string {
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  const footer = lines.pop() as string;
  const first = JSON.parse(lines.find((l) => l.includes('"type":"case"')) as string) as Record<string, unknown>;
  const error = { code: 'PROVIDER_ERROR', message: 'injected' };
  let missing: Record<string, unknown> | undefined;
  for (const renderer of ['names-only', 'full-details']) {
    for (const repeat of [0, 1, 2, 3]) {
      const key = `${first.suite}/${first.case}|${renderer}|${first.provider}|${repeat}`;
      if (!missing && !keptKeys.has(key)) missing = { ...first, key, renderer, repeat, error };
    }
  }
  if (!missing) throw new Error(`every trial of ${first.case} finished before the signal; the test needs one missing`);
  lines.push(JSON.stringify(missing), JSON.stringify({ ...first, error }), footer);
  writeFileSync(log, `${lines.join('\n')}\n`);
  return missing.key as string;
}
