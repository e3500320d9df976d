import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES } from '../src/report/report-sink.js';
import type { CaseRecord, RunFooter } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';

/*
 * A full disk, for real: a small tmpfs mounted for the test (the tests run as root, here and in CI). Where the OS
 * does not let us mount one (not root, no tmpfs), the tests are skipped, saying so.
 */
let tmp = '';
const mounted: string[] = [];

function mount(at: string, size: number): boolean {
  mkdirSync(at, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at], { stdio: 'ignore' });
  } catch {
    return false;
  }
  mounted.push(at);
  return true;
}

const resize = (at: string, size: number) =>
  execFileSync('mount', ['-o', `remount,size=${size}`, at], { stdio: 'ignore' });

/** Whether a tmpfs can be mounted here: tried once, and unmounted at once (the tests mount their own). */
function tmpfsAllowed(): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'tg-diskfull-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4096', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const canMount = tmpfsAllowed();
if (!canMount) console.warn('cli-disk-full: cannot mount a tmpfs here (needs root); the full-disk tests are skipped');

const MINI = join(FIXTURES, 'mini.config.yaml');
const caseLines = (log: string) => readRecords(log).filter((r): r is CaseRecord => r.type === 'case');

describe.skipIf(!canMount)('a disk that fills up during eval', () => {
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'tg-diskfull-'));
  });
  afterAll(() => {
    for (const at of mounted.reverse()) execFileSync('umount', [at]);
    rmSync(tmp, { recursive: true, force: true });
  });

  let completeLogBytes = 0;

  it('stops with one line and exit 3, keeps every case written before in a valid log, and --resume finishes it', async () => {
    const disk = join(tmp, 'small');
    expect(mount(disk, 64 * 1024)).toBe(true);
    // 60 cases: about 190 KB of run log, three times the disk
    const res = await runCli(['eval', '-c', MINI, '--repeat', '5', '-q', '--out', disk]);
    expect(res.code, res.stderr).toBe(3);
    const lines = res.stderr.trim().split('\n');
    expect(lines, res.stderr).toHaveLength(2); // the run's announcement, then the failure
    const m =
      /^toolgauge: cannot write (\S+)\/run\.jsonl: no space left on the device \(ENOSPC\); the run stopped, and \S+ holds the (\d+) case\(s\) finished before: free some space, then continue with: toolgauge eval --resume (\S+)$/.exec(
        lines[1] as string,
      );
    expect(m, lines[1]).not.toBeNull();
    const dir = runDirFrom(res.stderr);
    expect(m?.[3]).toBe(dir);
    // only the run log: no report, no part file, no lock left behind
    expect(readdirSync(dir)).toEqual(['run.jsonl']);
    // every line is a whole record (nothing torn), and the log holds the cases the line counts
    const log = join(dir, 'run.jsonl');
    const kept = caseLines(log);
    expect(kept.length).toBe(Number(m?.[2]));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(60);
    expect(readFileSync(log, 'utf8').endsWith('\n')).toBe(true);

    // Room again: the run resumes from the cases kept, and completes.
    resize(disk, 16 << 20);
    const resumed = await runCli(['eval', '--resume', dir, '-q']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const cases = caseLines(log);
    expect(new Set(cases.map((c) => c.key)).size).toBe(60);
    for (const k of kept) expect(cases.find((c) => c.key === k.key)?.startedAt).toBe(k.startedAt);
    expect(readRecords(log).at(-1) as RunFooter).toMatchObject({ type: 'footer', interrupted: false, completed: 60 });
    completeLogBytes = statSync(log).size;
  }, 120_000);

  it('when only the reports do not fit, keeps the complete run log, leaves no partial report, and says how to write them', async () => {
    expect(completeLogBytes).toBeGreaterThan(0);
    // room for the run log of the same 60 cases (a resumed log's header is longer), and three more pages
    const disk = join(tmp, 'log-only');
    expect(mount(disk, completeLogBytes + 3 * 4096)).toBe(true);
    const res = await runCli(['eval', '-c', MINI, '--repeat', '5', '-q', '--out', disk]);
    expect(res.code, res.stderr).toBe(3);
    const dir = runDirFrom(res.stderr);
    const last = res.stderr.trim().split('\n').at(-1) as string;
    expect(last).toMatch(
      new RegExp(
        `^toolgauge: cannot write \\S+: no space left on the device \\(ENOSPC\\); the run log \\S+/run\\.jsonl is complete: once the folder has room, write the reports with: toolgauge report ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
      ),
    );
    expect(res.stderr).not.toMatch(/\n\s+at /);
    const log = join(dir, 'run.jsonl');
    expect(readRecords(log).at(-1) as RunFooter).toMatchObject({ type: 'footer', interrupted: false, completed: 60 });
    // whole reports or none: no part file, some report missing, and each report present complete
    const files = readdirSync(dir);
    expect(files.filter((f) => f.startsWith('.'))).toEqual([]);
    expect(REPORT_FILES.every((f) => files.includes(f))).toBe(false);
    const text = (f: string) => readFileSync(join(dir, f), 'utf8').trimEnd();
    if (files.includes('run.json')) expect(() => JSON.parse(text('run.json'))).not.toThrow();
    if (files.includes('junit.xml')) expect(text('junit.xml').endsWith('</testsuites>')).toBe(true);
    if (files.includes('report.html')) expect(text('report.html').endsWith('</html>')).toBe(true);

    // Room again: the reports are written from the log.
    resize(disk, 16 << 20);
    const report = await runCli(['report', dir, '-q']);
    expect(report.code, report.stderr).toBe(0);
    for (const file of REPORT_FILES) expect(readdirSync(dir), file).toContain(file);
  }, 120_000);
});
