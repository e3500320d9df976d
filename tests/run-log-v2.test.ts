import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readRunLog } from '../src/run-log/reader.js';
import { type CaseRecord, RUN_LOG_FORMAT, type RunHeader, type RunRecord } from '../src/run-log/schema.js';
import { FIXTURES, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/* The eval of tests/fixtures/run-log-v1/shard-1 (format 1), run again today: written in format 2. */
const CASES = ['get-income-tax-rate', 'get-income-tax-rate-zh', 'set-income-tax-rate', 'list-presets'];
const CASES_MORE = ['compare-baseline-high-tax', 'run-baseline-to-completion', 'irrelevant-capital', 'ai-boom-summary'];
const EVAL = [
  'eval',
  '--suite',
  'economist',
  ...['-r', 'names-only', '-r', 'native-functions', '-p', 'sim:oracle', '-p', 'sim:guesser'],
  ...[...CASES, ...CASES_MORE].flatMap((c) => ['--filter', c]),
  '--shard',
  '1/2',
  '-q',
];
const V1 = join(FIXTURES, 'run-log-v1', 'shard-1');

async function records(dir: string): Promise<RunRecord[]> {
  const out: RunRecord[] = [];
  for await (const r of readRunLog(join(dir, 'run.jsonl'))) out.push(r);
  return out;
}
const cases = async (dir: string) => (await records(dir)).filter((r): r is CaseRecord => r.type === 'case');
const rawLines = (dir: string) =>
  readFileSync(join(dir, 'run.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const grades = (rs: CaseRecord[]) =>
  Object.fromEntries(rs.map((r) => [r.key, r.grades.map((g) => [g.grader, g.pass, g.score, g.reason])]));
const requests = (rs: CaseRecord[]) =>
  Object.fromEntries(rs.map((r) => [r.key, r.transcript.turns.map((t) => t.request)]));
/** results.csv without the columns that differ from run to run (duration). */
const csvRows = (dir: string) =>
  readFileSync(join(dir, 'results.csv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.replace(/,[^,]*$/, ''))
    .sort();

describe('run-log format 2: prompts and tool lists stored once per run', () => {
  const work = tempDir('tg-run-log-v2-');
  let runDir = '';

  beforeAll(async () => {
    const res = await runCli([...EVAL, '--out', join(work, 'runs')]);
    expect(res.code, res.stderr).toBe(0);
    runDir = runDirFrom(res.stderr);
  }, 120_000);

  it('writes each text once, before the first record that refers to it, and reads back the records of format 1', async () => {
    const lines = rawLines(runDir);
    expect((lines[0] as RunHeader).format).toBe(RUN_LOG_FORMAT);
    const seen = new Set<string>();
    let refs = 0;
    for (const line of lines) {
      if (line.type === 'blob') {
        expect(seen.has(line.hash as string)).toBe(false);
        seen.add(line.hash as string);
      }
      if (line.type !== 'case') continue;
      for (const t of (line as unknown as CaseRecord).transcript.turns) {
        const q = t.request as unknown as Record<string, unknown>;
        expect(q.system).toBeUndefined();
        expect(q.tools).toBeUndefined();
        expect(seen.has(q.systemRef as string)).toBe(true);
        if (q.toolsRef !== undefined) expect(seen.has(q.toolsRef as string)).toBe(true);
        refs++;
      }
    }
    expect(seen.size).toBeLessThan(refs);

    // The same eval in format 1 (the fixture): the records read are the same, at a fraction of the bytes.
    const before = await cases(V1);
    const after = await cases(runDir);
    expect(after.map((r) => r.key).sort()).toEqual(before.map((r) => r.key).sort());
    expect(grades(after)).toEqual(grades(before));
    expect(requests(after)).toEqual(requests(before));
    const size = (dir: string) => statSync(join(dir, 'run.jsonl')).size;
    expect(size(runDir)).toBeLessThan(size(V1) / 3);
  });

  it('report: the same figures as the report of the format-1 run', async () => {
    const v1 = join(work, 'v1');
    const lines = readFileSync(join(V1, 'run.jsonl'), 'utf8');
    mkdirSync(v1);
    writeFileSync(join(v1, 'run.jsonl'), lines);
    for (const dir of [v1, runDir]) expect((await runCli(['report', dir, '-q'])).code).toBe(0);
    expect(csvRows(runDir)).toEqual(csvRows(v1));
    // the tables of figures; the format-2 run also carries its gate's verdict (its table of what the gate can
    // detect), which a format-1 log never held
    const matrix = (dir: string) => {
      const rows: string[] = [];
      let detectTable = false;
      for (const l of readFileSync(join(dir, 'summary.md'), 'utf8').split('\n')) {
        if (!l.startsWith('|')) detectTable = false;
        else if (l.includes('| detects (80% power) |')) detectTable = true;
        if (l.startsWith('|') && !detectTable) rows.push(l);
      }
      return rows;
    };
    expect(matrix(runDir)).toEqual(matrix(v1));
  }, 60_000);

  it('eval --resume of a log cut anywhere keeps the blobs its records refer to', async () => {
    const full = readFileSync(join(runDir, 'run.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l);
    const expected = grades(await cases(runDir));
    // Cut after the first blob line, after the first case, and mid-run with a torn last line.
    const firstBlob = full.findIndex((l) => l.startsWith('{"type":"blob"'));
    const firstCase = full.findIndex((l) => l.startsWith('{"type":"case"'));
    const cuts = [firstBlob + 1, firstCase + 1, Math.floor(full.length / 2)];
    for (const [i, cut] of cuts.entries()) {
      const dir = join(work, `cut-${i}`);
      mkdirSync(dir);
      const torn = i === 2 ? `${(full[cut] as string).slice(0, 40)}` : '';
      writeFileSync(join(dir, 'run.jsonl'), `${full.slice(0, cut).join('\n')}\n${torn}`);
      const res = await runCli(['eval', '--resume', dir, '-q']);
      expect(res.code, res.stderr).toBe(0);
      const resumed = await records(dir); // every reference resolves, or this throws naming file:line
      expect(resumed.at(-1)).toMatchObject({ type: 'footer', interrupted: false });
      // (a resumed run runs its config's plan: `--filter` is not kept in the header, so it runs the whole shard)
      const after = grades(resumed.filter((r): r is CaseRecord => r.type === 'case'));
      expect(Object.fromEntries(Object.keys(expected).map((k) => [k, after[k]]))).toEqual(expected);
    }
  }, 120_000);

  it('a reference to a blob not written before it is refused naming file:line', async () => {
    const dir = join(work, 'bad');
    mkdirSync(dir);
    const lines = readFileSync(join(runDir, 'run.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => !l.startsWith('{"type":"blob"'));
    writeFileSync(join(dir, 'run.jsonl'), lines.join('\n'));
    await expect(records(dir)).rejects.toThrow(
      /run\.jsonl:2: transcript\.turns\.0\.request\.systemRef "[0-9a-f]{16}" names no blob/,
    );
  });
});
