import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradeCommand } from '../src/cli/grade-command.js';
import { mergeCommand } from '../src/cli/merge-command.js';
import { REPORT_FILES } from '../src/report/write-reports.js';
import type { CaseRecord, RunFooter, RunHeader } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const call = (args: object) =>
  `<tool_call>{"name": "read_data_from_excel", "arguments": ${JSON.stringify(args)}}</tool_call>`;
const read = call({ filepath: 'test.xlsx', sheet_name: 'Sheet1' });

async function grade(lines: unknown[], extra: { protocol?: string; renderer?: string; shard?: string } = {}) {
  const dir = tempDir('tg-grade-');
  const outputs = join(dir, 'outputs.jsonl');
  writeFileSync(outputs, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  const out = join(dir, 'reports');
  const code = await gradeCommand({ suite: join(FIXTURES, 'mini.yaml'), outputs, out, quiet: true, ...extra });
  const runDir = join(out, readdirSync(out)[0] as string);
  const records = readRecords(join(runDir, 'run.jsonl'));
  const cases = records.filter((r): r is CaseRecord => r.type === 'case');
  const grades = (i: number) => Object.fromEntries((cases[i]?.grades ?? []).map((g) => [g.grader, g.pass]));
  return { code, runDir, records, cases, grades, outputs };
}

describe('toolgauge grade --outputs (offline grading of recorded outputs)', () => {
  it('grades raw text, native tool calls and multi-turn transcripts into a run log like eval', async () => {
    const { code, runDir, records, cases, grades } = await grade([
      { case: 'read-sheet-zh', output: read },
      { case: 'read-sheet-zh', output: `\`\`\`tool_call\n${read}\n\`\`\`` },
      {
        case: 'metadata',
        model: 'gpt-prod',
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'get_workbook_metadata', arguments: '{"filepath":"sales.xlsx"}' },
          },
        ],
      },
      { case: 'capital-irrelevant', output: 'Paris.' },
      { case: 'capital-irrelevant', output: call({ filepath: 'x.xlsx', sheet_name: 'S' }) },
      {
        case: 'read-sheet-zh',
        turns: [
          { output: read, results: [{ name: 'read_data_from_excel', result: '名称 数量\n苹果 3' }] },
          { output: '(等待工具返回结果...)' },
        ],
      },
    ]);
    expect(code).toBe(0);
    const header = records[0] as RunHeader;
    expect(header).toMatchObject({ type: 'header', format: 'toolgauge.run/2', plannedCases: 6 });
    expect(header.providers.map((p) => p.label)).toEqual(['recorded', 'gpt-prod']);
    expect(records.at(-1)).toMatchObject({ type: 'footer', completed: 6, errors: 0 } satisfies Partial<RunFooter>);
    expect(cases.map((c) => c.key)).toEqual([
      'mini/read-sheet-zh|recorded|recorded|0',
      'mini/read-sheet-zh|recorded|recorded|1',
      'mini/metadata|recorded|gpt-prod|0',
      'mini/capital-irrelevant|recorded|recorded|0',
      'mini/capital-irrelevant|recorded|recorded|1',
      'mini/read-sheet-zh|recorded|recorded|2',
    ]);
    expect(grades(0)).toMatchObject({ parseable: true, 'correct-arguments': true, 'markdown-wrapped': true });
    expect(grades(1)).toMatchObject({ parseable: false, 'correct-arguments': true, 'markdown-wrapped': false });
    expect(cases[2]?.protocol).toBe('native');
    expect(grades(2)).toMatchObject({ parseable: true, 'correct-arguments': true });
    expect(grades(3)).toEqual({ 'no-call': true });
    expect(grades(4)).toMatchObject({ 'no-call': false });
    expect(grades(5)).toMatchObject({ 'correct-arguments': true, 'continued-after-results': false });
    // the suite's tools come from the live (in-process) excel server: the catalog hash is recorded
    expect(cases[0]?.catalogHash).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(join(runDir, 'summary.md'))).toBe(true);
  });

  it('--renderer labels the cell; --protocol json makes xml-tags calls non-strict', async () => {
    const { cases, grades } = await grade([{ case: 'read-sheet-zh', output: read }], {
      protocol: 'json',
      renderer: 'prod-prompt-v3',
    });
    expect(cases[0]?.key).toBe('mini/read-sheet-zh|prod-prompt-v3|recorded|0');
    expect(grades(0)).toMatchObject({ parseable: false, 'correct-arguments': true });
  });

  it('a bad line is named by its number in a file read in several chunks', async () => {
    // ~1.5 MiB of valid lines (the file is read 1 MiB at a time), then a bad one
    const good = JSON.stringify({ case: 'read-sheet-zh', output: `${read} ${'x'.repeat(200)}` });
    const lines: unknown[] = Array.from({ length: Math.ceil((1.5 * 2 ** 20) / good.length) }, () => good);
    lines.push({ case: 'nope', output: 'x' });
    await expect(grade(lines)).rejects.toThrow(
      new RegExp(`outputs\\.jsonl:${lines.length}: case 'nope' is not in suite mini`),
    );
  });

  it('offline records leave out what no recording has: the wire exchange and the prompt cache', async () => {
    const { cases } = await grade([{ case: 'read-sheet-zh', output: read }]);
    const c = cases[0] as CaseRecord;
    expect(c.transcript.turns[0]?.response.raw).toEqual({});
    expect(c.usage).toEqual({ input: 0, output: 0 });
    expect(new Date(c.startedAt).toISOString()).toBe(c.startedAt);
  });

  it('bad lines are one-line errors naming file:line, before anything is graded', async () => {
    await expect(
      grade([
        { case: 'read-sheet-zh', output: read },
        { case: 'nope', output: 'x' },
      ]),
    ).rejects.toThrow(/outputs\.jsonl:2: case 'nope' is not in suite mini/);
    await expect(grade([{ case: 'read-sheet-zh', output: read }, '{oops'])).rejects.toThrow(
      /outputs\.jsonl:2: not JSON \(.*position 1.*\); each line must be/,
    );
    await expect(grade([])).rejects.toThrow(/--outputs .*outputs\.jsonl: no lines to grade \(the file is empty\)/);
    await expect(grade(['', '  '])).rejects.toThrow(/no lines to grade/);
    await expect(grade([{ case: 'read-sheet-zh' }])).rejects.toThrow(
      /outputs\.jsonl:1: needs "output", "tool_calls" or "turns"/,
    );
    await expect(grade([{ case: 'read-sheet-zh', output: read }], { protocol: 'yaml' })).rejects.toThrow(
      /--protocol yaml: unknown protocol/,
    );
  });

  it('a file saved with a byte order mark (Windows editors) grades like one without', async () => {
    const { cases } = await grade([`\ufeff${JSON.stringify({ case: 'read-sheet-zh', output: read })}`]);
    expect(cases.map((c) => c.case)).toEqual(['read-sheet-zh']);
  });

  it('a file with a bad line leaves no run folder behind', async () => {
    const dir = tempDir('tg-grade-bad-');
    const outputs = join(dir, 'outputs.jsonl');
    writeFileSync(
      outputs,
      `${JSON.stringify({ case: 'read-sheet-zh', output: read })}\n{"case": "nope", "output": ""}\n`,
    );
    const out = join(dir, 'reports');
    await expect(gradeCommand({ suite: join(FIXTURES, 'mini.yaml'), outputs, out, quiet: true })).rejects.toThrow(
      /outputs\.jsonl:2: case 'nope'/,
    );
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it('writes the same reports as eval, and the summary links them', async () => {
    const { runDir } = await grade([
      { case: 'read-sheet-zh', output: read },
      { case: 'read-sheet-zh', output: 'Sure, which file?' },
    ]);
    for (const file of REPORT_FILES) expect(existsSync(join(runDir, file)), file).toBe(true);
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('read-sheet-zh');
    const csv = readFileSync(join(runDir, 'results.csv'), 'utf8');
    // one row per grade of each graded line
    expect(csv).toContain(
      'mini/read-sheet-zh|recorded|recorded|0,mini,read-sheet-zh,recorded,recorded,false,0,parseable,true',
    );
    expect(csv).toContain(
      'mini/read-sheet-zh|recorded|recorded|1,mini,read-sheet-zh,recorded,recorded,false,1,parseable,false',
    );
    expect(readFileSync(join(runDir, 'summary.md'), 'utf8')).toContain('report.html');
  });
});

describe('toolgauge grade --shard i/n (grading one file on several cores)', () => {
  it('the shards partition the lines by case, and their merge equals the unsharded run', async () => {
    const outputs = join(FIXTURES, 'bfcl-recorded', 'airev-ai_AIREV-Agent-0.8B', 'multiple.jsonl');
    const suite = join(FIXTURES, '..', '..', 'suites', 'bfcl', 'multiple.yaml');
    const dir = tempDir('tg-grade-shard-');
    const runOf = async (name: string, shard?: string) => {
      const out = join(dir, name);
      expect(await gradeCommand({ suite, outputs, out, quiet: true, ...(shard ? { shard } : {}) })).toBe(0);
      return join(out, readdirSync(out)[0] as string);
    };
    const whole = await runOf('whole');
    const shards = [await runOf('s1', '1/3'), await runOf('s2', '2/3'), await runOf('s3', '3/3')];
    const casesOf = (runDir: string) =>
      readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    const verdicts = (records: CaseRecord[]) =>
      records.map((r) => `${r.key} ${r.grades.map((g) => `${g.grader}=${g.pass}`).join(' ')}`).sort();

    const parts = shards.map(casesOf);
    expect(parts.every((p) => p.length > 30)).toBe(true);
    const headers = shards.map((d) => readRecords(join(d, 'run.jsonl'))[0] as RunHeader);
    expect(headers.map((h) => [h.shard, h.plannedCases])).toEqual(
      parts.map((p, i) => [{ index: i + 1, count: 3 }, p.length]),
    );
    // no case in two shards, and together exactly the unsharded run's records and verdicts
    const owners = new Map<string, Set<number>>();
    for (const [i, p] of parts.entries())
      for (const r of p) owners.set(r.case, (owners.get(r.case) ?? new Set()).add(i));
    expect([...owners.values()].every((s) => s.size === 1)).toBe(true);
    expect(verdicts(parts.flat())).toEqual(verdicts(casesOf(whole)));

    const merged = join(dir, 'merged');
    expect(await mergeCommand(shards, { out: merged })).toBe(0);
    expect(verdicts(casesOf(merged))).toEqual(verdicts(casesOf(whole)));
  });

  it('a bad --shard is a usage error', async () => {
    await expect(grade([{ case: 'read-sheet-zh', output: read }], { shard: '3/2' })).rejects.toThrow(
      /--shard 3\/2: expected i\/n with 1 ≤ i ≤ n/,
    );
  });
});

describe('toolgauge grade --outputs - (standard input)', () => {
  it('grades JSONL piped in, and names stdin in errors', async () => {
    const dir = tempDir('tg-grade-stdin-');
    const input = `${JSON.stringify({ case: 'read-sheet-zh', output: read })}\n${JSON.stringify({ case: 'read-sheet-zh', output: 'Which file?' })}\n`;
    const args = ['grade', '--suite', join(FIXTURES, 'mini.yaml'), '--outputs', '-', '--out', join(dir, 'out'), '-q'];
    const ok = await runCli(args, undefined, input);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('grading 2 line(s) of stdin against mini');
    const cases = readRecords(join(runDirFrom(ok.stderr), 'run.jsonl')).filter(
      (r): r is CaseRecord => r.type === 'case',
    );
    expect(cases.map((c) => c.grades.find((g) => g.grader === 'parseable')?.pass)).toEqual([true, false]);

    const bad = await runCli(args, undefined, `${JSON.stringify({ case: 'nope', output: 'x' })}\n`);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/stdin:1: case 'nope' is not in suite mini/);
  });
});
