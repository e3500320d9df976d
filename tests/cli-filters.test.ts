import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/** One renderer × one provider over the bundled excel suite, whose cases carry tags. */
const EVAL = ['eval', '-s', 'excel', '-r', 'names-only', '-p', 'sim:oracle', '-q'];

function caseIds(runDir: string): string[] {
  return readRecords(join(runDir, 'run.jsonl'))
    .filter((r): r is CaseRecord => r.type === 'case')
    .map((r) => r.key.split('|')[0]!)
    .sort();
}

describe('case selection: --filter and --tag (real CLI)', () => {
  it('--filter and --tag are repeatable: a case runs when it matches any glob and has any tag', async () => {
    const out = tempDir('tg-filters-');
    const res = await runCli([
      ...EVAL,
      '--out',
      out,
      '--filter',
      '*-zh',
      '--filter',
      'read-q1-en',
      '--tag',
      'metadata',
      '--tag',
      'en',
    ]);
    expect(res.stderr).toContain('toolgauge: 2 cases');
    expect(res.code).toBe(0);
    expect(caseIds(runDirFrom(res.stderr))).toEqual(['excel/metadata-ranges-zh', 'excel/read-q1-en']);
  }, 120_000);

  it('a --filter or --tag that matches no case is a usage error naming it', async () => {
    const glob = await runCli([...EVAL, '--filter', 'read-*', '--filter', 'no-such-case*']);
    expect(glob.code).toBe(2);
    expect(glob.stderr).toContain("--filter 'no-such-case*' matches no case id");
    const tag = await runCli([...EVAL, '--tag', 'read', '--tag', 'no-such-tag']);
    expect(tag.code).toBe(2);
    expect(tag.stderr).toContain("--tag 'no-such-tag' is on no case");
    const both = await runCli([...EVAL, '--filter', 'read-*', '--tag', 'metadata']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--filter 'read-*' --tag 'metadata': no case passes both");
  }, 120_000);

  it('replay takes --filter and --tag too', async () => {
    const out = tempDir('tg-filters-replay-');
    const first = await runCli([...EVAL, '--out', out, '--tag', 'metadata']);
    expect(first.code).toBe(0);
    const runDir = runDirFrom(first.stderr);
    expect(caseIds(runDir)).toEqual([
      'excel/metadata-ranges-zh',
      'excel/metadata-sales-en',
      'excel/metadata-then-read-en',
    ]);
    const again = await runCli(['replay', runDir, '-q', '--filter', '*-zh', '--tag', 'metadata']);
    expect(again.code).toBe(0);
    expect(caseIds(runDirFrom(again.stderr))).toEqual(['excel/metadata-ranges-zh']);
    // the run log carries each case's tags (the report's tag search reads them there, not from the suite)
    for (const dir of [runDir, runDirFrom(again.stderr)]) {
      const tags = readRecords(join(dir, 'run.jsonl')).flatMap((r) =>
        r.type === 'case' && r.case === 'metadata-ranges-zh' ? [r.tags] : [],
      );
      expect(tags).toEqual([['metadata', 'zh', 'follow-up']]);
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('"follow-up"');
    }
    const none = await runCli(['replay', runDir, '-q', '--tag', 'no-such-tag']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--tag 'no-such-tag' is on no case");
  }, 120_000);
});

describe('-q means the same for eval and grade (real CLI)', () => {
  it('grade -q hides the progress but still prints the summary', async () => {
    const work = tempDir('tg-grade-q-');
    const outputs = join(work, 'outputs.jsonl');
    writeFileSync(outputs, `${JSON.stringify({ case: 'read-q1-en', output: 'no call here' })}\n`);
    const res = await runCli(['grade', '--suite', 'excel', '--outputs', outputs, '--out', join(work, 'r'), '-q']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('# toolgauge run');
    expect(res.stdout).toContain('Pass rate per grader');
  }, 60_000);

  it('eval -q does the same', async () => {
    const out = tempDir('tg-eval-q-');
    const res = await runCli([...EVAL, '--out', out, '--filter', 'read-q1-en']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('# toolgauge run');
  }, 60_000);
});
