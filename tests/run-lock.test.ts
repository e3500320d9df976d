import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeRecords } from '../src/run-log/reader.js';
import type { CaseRecord, RunRecord } from '../src/run-log/schema.js';
import { RUN_LOCK_FILE } from '../src/util/run-lock.js';
import { caseCount, FIXTURES, finished, runCli, runDirFrom, startCli, waitFor } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/** A config whose 12 cases take ~400 ms each, one at a time: a run lasts long enough for a second process to meet it. */
function slowConfig(): { config: string; out: string } {
  const out = tempDir('tg-lock-');
  const config = join(out, 'slow.config.yaml');
  writeFileSync(
    config,
    [
      `suites: [${JSON.stringify(join(FIXTURES, 'mini.yaml'))}]`,
      'renderers: [names-only]',
      'providers:',
      '  - id: sim:oracle',
      '    options: { latencyMs: 400 }',
      'repeats: 4',
      'concurrency: 1',
      `out: ${JSON.stringify(out)}`,
      '',
    ].join('\n'),
  );
  return { config, out };
}

/** Every line of the log parses, one header first, exactly one footer and nothing after it. */
function expectIntactLog(file: string): RunRecord[] {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  // Every line whole JSON; then decoded as the reader decodes them (a case record leaves out what it derives).
  const records = decodeRecords(
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  ) as unknown as RunRecord[];
  expect(records[0]?.type).toBe('header');
  expect(records.filter((r) => r.type === 'header')).toHaveLength(1);
  expect(records.filter((r) => r.type === 'footer')).toHaveLength(1);
  expect(records.at(-1)?.type).toBe('footer');
  return records;
}

/** Starts a run, interrupts it after its first case: a run folder to resume. */
async function interruptedRun(config: string): Promise<string> {
  const child = startCli(['eval', '-c', config, '-q']);
  const done = finished(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  await waitFor(() => /→ (\S+)\n/.test(stderr), 30_000);
  const dir = runDirFrom(stderr);
  await waitFor(() => caseCount(join(dir, 'run.jsonl')) >= 1, 30_000);
  child.kill('SIGINT');
  expect((await done).code).toBe(130);
  return dir;
}

describe('the lock on a run folder', () => {
  it('refuses a second eval --resume of a folder being resumed (exit 2, the holder named) and the log stays intact', async () => {
    const { config } = slowConfig();
    const dir = await interruptedRun(config);
    const lock = join(dir, RUN_LOCK_FILE);

    const first = startCli(['eval', '--resume', dir, '-q']);
    const firstDone = finished(first);
    await waitFor(() => existsSync(lock), 30_000);
    const second = await runCli(['eval', '--resume', dir, '-q']);
    const firstResult = await firstDone;

    expect(second.code).toBe(2);
    const refusal = second.stderr.trim().split('\n').at(-1) ?? '';
    expect(refusal).toContain(`is in use by toolgauge eval --resume (pid ${first.pid} on ${hostname()}, since `);
    expect(refusal).toContain(`delete ${join(dir, RUN_LOCK_FILE)}`);
    // the refused process touched neither the log nor the reports: the first finishes as if alone
    expect(firstResult.code, firstResult.stderr).toBe(0);
    expect(firstResult.stderr).not.toContain('is in use by');
    const records = expectIntactLog(join(dir, 'run.jsonl'));
    const cases = records.filter((r): r is CaseRecord => r.type === 'case');
    expect(cases).toHaveLength(12);
    expect(new Set(cases.map((c) => c.key)).size).toBe(12);
    expect(records.at(-1)).toMatchObject({ type: 'footer', interrupted: false, completed: 12 });
    expect(existsSync(lock)).toBe(false); // released at the end
  }, 60_000);

  it('takes over the lock of a process killed with -9, with a note, so --resume still works', async () => {
    const { config } = slowConfig();
    const dir = await interruptedRun(config);
    const lock = join(dir, RUN_LOCK_FILE);

    const log = join(dir, 'run.jsonl');
    const kept = caseCount(log);
    const killed = startCli(['eval', '--resume', dir, '-q']);
    const killedDone = finished(killed);
    // Killed once it holds the lock and has logged a case of its own.
    await waitFor(() => existsSync(lock) && caseCount(log) > kept, 30_000);
    killed.kill('SIGKILL');
    await killedDone;
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: killed.pid, command: 'eval --resume' });

    const resumed = await runCli(['eval', '--resume', dir, '-q']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(
      `took over the lock left by toolgauge eval --resume (pid ${killed.pid} on ${hostname()}`,
    );
    expect(resumed.stderr).toContain('which is no longer running');
    const records = expectIntactLog(join(dir, 'run.jsonl'));
    expect(records.filter((r) => r.type === 'case')).toHaveLength(12);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it('refuses regrade --in-place and merge into a folder another process is writing', async () => {
    const { config } = slowConfig();
    const dir = await interruptedRun(config);
    const other = await interruptedRun(config);
    // The test process itself stands for the live writer.
    const owner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: 'eval' };
    writeFileSync(join(dir, RUN_LOCK_FILE), JSON.stringify(owner));
    const before = readFileSync(join(dir, 'run.jsonl'), 'utf8');

    const regrade = await runCli(['regrade', dir, '--in-place']);
    expect(regrade.code).toBe(2);
    expect(regrade.stderr).toContain(`is in use by toolgauge eval (pid ${process.pid} on ${hostname()}`);
    const merge = await runCli(['merge', dir, other, '--out', dir]);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toContain(`is in use by toolgauge eval (pid ${process.pid}`);
    expect(readFileSync(join(dir, 'run.jsonl'), 'utf8')).toBe(before);
  }, 60_000);
});
