import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readRunLog } from '../src/run-log/reader.js';
import type { CaseRecord, RunHeader, RunRecord } from '../src/run-log/schema.js';
import { jsonText } from '../src/util/json-text.js';
import { FIXTURES, runCli, runDirFrom } from './cli-helpers.js';
import { reportData } from './helpers/report-data.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/*
 * tests/fixtures/run-log-v1/: the two shards (--shard 1/2, 2/2) of one real run written in run-log format
 * toolgauge.run/1, before prompts were stored once per run: `eval --suite economist -r names-only -r
 * native-functions -p sim:oracle -p sim:guesser` over 8 cases (32 case records, both protocols, a multi-turn case,
 * an irrelevance case, passes and failures). Every command that reads a run log must keep reading them.
 */
const V1 = join(FIXTURES, 'run-log-v1');
const SHARDS = ['shard-1', 'shard-2'];

async function records(dir: string): Promise<RunRecord[]> {
  const out: RunRecord[] = [];
  for await (const r of readRunLog(join(dir, 'run.jsonl'))) out.push(r);
  return out;
}
const cases = async (dir: string) => (await records(dir)).filter((r): r is CaseRecord => r.type === 'case');
const byKey = (rs: CaseRecord[]) => new Map(rs.map((r) => [r.key, r]));
const grades = (rs: CaseRecord[]) =>
  Object.fromEntries(rs.map((r) => [r.key, r.grades.map((g) => [g.grader, g.pass, g.score, g.reason])]));
/** What the model was sent, turn by turn (system prompt, messages, tools). */
const requests = (rs: CaseRecord[]) =>
  Object.fromEntries(
    rs.map((r) => [
      r.key,
      r.transcript.turns.map((t) => ({
        system: t.request.system,
        messages: t.request.messages,
        tools: t.request.tools,
      })),
    ]),
  );

/**
 * The fixture copied into a scratch folder. Its header names the config file of the folder it was made in (absent:
 * the run was started from the command line), and replay writes beside that file; the copy's header names one in
 * the scratch folder instead. The case records are copied byte for byte.
 */
function copyFixture(work: string): void {
  for (const shard of SHARDS) {
    const lines = readFileSync(join(V1, shard, 'run.jsonl'), 'utf8').split('\n');
    const header = JSON.parse(lines[0] as string) as RunHeader;
    lines[0] = JSON.stringify({ ...header, configFile: join(work, 'toolgauge.config.yaml') });
    mkdirSync(join(work, shard));
    writeFileSync(join(work, shard, 'run.jsonl'), lines.join('\n'));
  }
}

describe('a run log of format toolgauge.run/1 (tests/fixtures/run-log-v1) is still read by every command', () => {
  const work = tempDir('tg-run-log-v1-');
  const merged = join(work, 'merged');
  let original: CaseRecord[] = [];

  beforeAll(async () => {
    copyFixture(work);
    original = [...(await cases(join(work, 'shard-1'))), ...(await cases(join(work, 'shard-2')))];
    const res = await runCli(['merge', join(work, 'shard-1'), join(work, 'shard-2'), '--out', merged]);
    expect(res.stderr).toContain('merge: 32 cases from 2 runs');
    expect(res.code, res.stderr).toBe(0);
  }, 120_000);

  it('the fixture is format 1, with both protocols and both providers', () => {
    for (const shard of SHARDS) {
      const first = readFileSync(join(V1, shard, 'run.jsonl'), 'utf8').split('\n', 1)[0] as string;
      expect((JSON.parse(first) as RunHeader).format).toBe('toolgauge.run/1');
    }
    expect(original).toHaveLength(32);
    expect(new Set(original.map((r) => r.protocol))).toEqual(new Set(['xml-tags', 'native']));
    expect(new Set(original.map((r) => r.provider))).toEqual(new Set(['sim:oracle', 'sim:guesser']));
    expect(original.some((r) => r.grades.some((g) => !g.pass))).toBe(true);
    expect(original.every((r) => r.transcript.turns.every((t) => t.request.system.length > 0))).toBe(true);
  });

  it('merge: the two shards become one run with every record as it was', async () => {
    const all = await records(merged);
    expect(all[0]).toMatchObject({ type: 'header', plannedCases: 32 });
    expect((all[0] as RunHeader).shard).toBeUndefined();
    expect(all.at(-1)).toMatchObject({ type: 'footer', completed: 32, interrupted: false });
    const mergedCases = all.filter((r): r is CaseRecord => r.type === 'case');
    const before = byKey(original);
    expect(mergedCases).toHaveLength(32);
    for (const r of mergedCases) expect(r).toEqual(before.get(r.key));
  });

  it('report: every report regenerated, the HTML page showing the prompts and tools the model was sent', async () => {
    const dir = join(work, 'shard-2');
    const res = await runCli(['report', dir, '-q']);
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('cases run: 20');
    const csv = readFileSync(join(dir, 'results.csv'), 'utf8').trim().split('\n').slice(1);
    expect(new Set(csv.map((l) => l.split(',')[0])).size).toBe(20);
    // the page's case details hold each case's system prompt and tools JSON in full, as the model was sent them
    const page = reportData(readFileSync(join(dir, 'report.html'), 'utf8'));
    const strings = new Set([...page.failing, ...page.passing].flatMap((chunk) => chunk.s));
    const shown = (await cases(dir)).flatMap((r) => r.transcript.turns.map((t) => t.request));
    expect(shown.some((q) => q.tools?.length)).toBe(true);
    for (const q of shown) {
      expect(strings.has(q.system)).toBe(true);
      if (q.tools?.length) expect(strings.has(jsonText(q.tools, { indent: 2, indentLevels: 32 }) as string)).toBe(true);
    }
  }, 60_000);

  it('regrade: the stored transcripts graded again give the same grades', async () => {
    const out = join(work, 'regraded');
    const res = await runCli(['regrade', merged, '--out', out]);
    // the verdicts, scores and reasons are the run's; only correct-arguments' data is richer than format 1's run
    // recorded (it now says which tool was taken for each expected call, `selections`), so those grades count as changed
    expect(res.stderr).toMatch(/32 records regraded, \d+ with changed grades/);
    const regraded = await cases(out);
    expect(grades(regraded)).toEqual(grades(original));
    const data = (rs: CaseRecord[]) =>
      rs.flatMap((r) => r.grades.filter((g) => g.grader !== 'correct-arguments').map((g) => [r.key, g.grader, g.data]));
    expect(data(regraded)).toEqual(data(original));
    expect(requests(regraded)).toEqual(requests(original));
  }, 60_000);

  it('replay: every case re-run from the exchanges the log holds, with the same requests and grades', async () => {
    const res = await runCli(['replay', merged, '-q']);
    expect(res.code, res.stderr).toBe(0);
    const replayed = await cases(runDirFrom(res.stderr));
    expect(replayed.filter((r) => r.error)).toEqual([]);
    expect(grades(replayed)).toEqual(grades(original));
    expect(requests(replayed)).toEqual(requests(original));

    // compare: the v1 run as the baseline of its replay (and of itself) finds no flip
    const cmp = await runCli(['compare', merged, runDirFrom(res.stderr), '--out', join(work, 'compare.md'), '-q']);
    expect(cmp.code, cmp.stderr).toBe(0);
    const compared = readFileSync(join(work, 'compare.md'), 'utf8');
    expect(compared).toContain('## Regressions (0)');
    expect(compared).toContain('Case flips: 0 pass→fail, 0 fail→pass, 0 other');
    const self = await runCli(['compare', join(work, 'shard-1'), join(work, 'shard-1'), '-q']);
    expect(self.code, self.stderr).toBe(0);
  }, 120_000);

  it('replay --failures re-runs only the failing cases', async () => {
    const res = await runCli(['replay', merged, '--failures', '-q']);
    expect([0, 1]).toContain(res.code);
    const failing = original.filter((r) => r.error || r.grades.some((g) => !g.pass)).map((r) => r.key);
    expect(failing.length).toBeGreaterThan(0);
    const replayed = await cases(runDirFrom(res.stderr));
    expect(replayed.map((r) => r.key).sort()).toEqual(failing.sort());
    // the first line counts the subset, not the plan; the last says how many still fail
    expect(res.stderr).toMatch(
      new RegExp(
        `^toolgauge: ${failing.length} of the \\d+ cases of 1 suite.* \\(the cases that failed in \\S+\\) → `,
        'm',
      ),
    );
    const still = replayed.filter((r) => r.error || r.grades.some((g) => !g.pass)).length;
    expect(res.stderr).toMatch(/^replay: \d+ of \d+ replayed cases still fail \(were failing in \S+\)$/m);
    expect(res.stderr).toContain(`replay: ${still} of ${failing.length} replayed cases still fail (were failing in `);
  }, 120_000);

  it('export promptfoo: a result per case record', async () => {
    const file = join(work, 'promptfoo.json');
    const res = await runCli(['export', 'promptfoo', merged, '--out', file]);
    expect(res.code, res.stderr).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { results: { results: unknown[] } };
    expect(exported.results.results).toHaveLength(32);
  }, 60_000);

  it('leaves the fixture untouched', () => {
    for (const shard of SHARDS) expect(readdirSync(join(V1, shard))).toEqual(['run.jsonl']);
    expect(existsSync(join(V1, 'reports'))).toBe(false);
  });
});
