import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Grade } from '../src/contracts/grade.js';
import type { CaseRecord, RunHeader } from '../src/run-log/schema.js';
import { type CliResult, ROOT, readRecords, runDirFrom } from './cli-helpers.js';
import { closeReportBrowser, openReport, type ReportPage } from './helpers/report-browser.js';
import { runCliAnywhere } from './run-cli-anywhere.js';

/**
 * Presentation as the experiment, through the real CLI: one eval of catalog variants (distractors from bundled
 * catalogs, a servers and a tools file, shuffled; reworded and cut descriptions in alphabetical order; everything
 * stripped), a --sweep of the distractor count, and tool search natively and in a text protocol, with sim:oracle and
 * the catalog persona sim:selector; then regrade, replay and render of that run, and its report in Chromium.
 */
const dir = mkdtempSync(join(tmpdir(), 'tg-presentation-'));
const EVIL = '<img src=x onerror=alert(9)>';
const REWORDED = 'REWORDED: reads the cells of one worksheet of an Excel workbook, <b onmouseover=alert(11)>x</b>';
let eval1: CliResult;
let runDir: string;
let header: RunHeader;
let records: CaseRecord[];
let runJson: {
  presentation: {
    cells: {
      renderer: string;
      provider: string;
      tools: Record<string, number | string>[];
      confusions: { expected: string; called: string; how: string; count: number }[];
    }[];
    sweeps: {
      provider: string;
      renderer: string;
      points: { strategy: string; graders: Record<string, { pass: number; n: number }> }[];
    }[];
  };
};

const SWEPT = 'native-functions@crowded[distractors.count=120]';
const grade = (r: CaseRecord, g: string) => r.grades.find((x) => x.grader === g) as Grade | undefined;
const recordsOf = (strategy: string, provider?: string) =>
  records.filter((r) => r.renderer === strategy && (!provider || r.provider === provider));

beforeAll(async () => {
  writeFileSync(
    join(dir, 'evil.json'),
    JSON.stringify([
      {
        name: 'read_data_from_excel_sheet',
        description: `Read data from an Excel worksheet with cell metadata ${EVIL}`,
        inputSchema: {
          type: 'object',
          properties: { filepath: { type: 'string', description: '<script>alert(10)</script>' } },
        },
      },
      {
        name: 'read_file_text',
        description: 'Read a file and return its contents with line numbers',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ]),
  );
  writeFileSync(
    join(dir, 'descriptions.yaml'),
    stringify({
      read_data_from_excel: {
        description: REWORDED,
        parameters: { sheet_name: 'REWORDED-PARAM: the tab to read' },
      },
    }),
  );
  writeFileSync(
    join(dir, 'toolgauge.config.yaml'),
    stringify({
      suites: [join(ROOT, 'suites/excel.yaml'), join(ROOT, 'suites/coder.yaml')],
      renderers: [
        { name: 'native-functions', variants: ['none', 'crowded'] },
        { name: 'full-details', variants: ['reworded', 'bare'] },
        { name: 'tool-search', variants: ['crowded'] },
        { name: 'tool-search', options: { protocol: 'xml-tags', method: 'regex' }, variants: ['crowded'] },
        { name: 'cline-xml', variants: ['reworded'] },
      ],
      variants: [
        {
          name: 'crowded',
          distractors: { from: ['evil.json', 'office', 'everyday', 'economist'], count: 120 },
          order: 'shuffled',
        },
        { name: 'reworded', descriptions: 'descriptions.yaml', order: 'alphabetical', truncate: 60 },
        { name: 'bare', strip: ['descriptions', 'parameter-descriptions', 'enums', 'defaults'] },
      ],
      providers: ['sim:oracle', 'sim:selector'],
      concurrency: 4,
      out: join(dir, 'reports'),
      gate: {
        baseline: 'none',
        thresholds: [
          { grader: 'correct-arguments', provider: 'sim:oracle', min: 1 },
          { grader: 'tool-search', provider: 'sim:oracle', min: 1 },
        ],
      },
    }),
  );
  eval1 = await runCliAnywhere(
    [
      'eval',
      '-c',
      join(dir, 'toolgauge.config.yaml'),
      '--filter',
      'excel/read-*',
      '--filter',
      'coder/*',
      '--sweep',
      'crowded.distractors.count=0,120',
      '--record',
      '-q',
    ],
    dir,
  );
  runDir = runDirFrom(eval1.stderr, dir);
  const all = readRecords(join(runDir, 'run.jsonl'));
  header = all[0] as RunHeader;
  records = all.filter((r): r is CaseRecord => r.type === 'case');
  runJson = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8'));
}, 240_000);

afterAll(async () => {
  await closeReportBrowser();
  rmSync(dir, { recursive: true, force: true });
});

describe('catalog variants, sweeps and tool search through the real CLI', () => {
  it('passes its gate with one strategy per renderer, options and variant point, named renderer@variant', () => {
    expect(eval1.stderr).toContain('gate: passed');
    expect(eval1.code).toBe(0);
    expect(header.strategies.map((s) => s.label)).toEqual([
      'native-functions',
      'native-functions@crowded[distractors.count=0]',
      SWEPT,
      'full-details@reworded',
      'full-details@bare',
      'tool-search@crowded[distractors.count=0]',
      'tool-search@crowded[distractors.count=120]',
      'tool-search(method=regex,protocol=xml-tags)@crowded[distractors.count=0]',
      'tool-search(method=regex,protocol=xml-tags)@crowded[distractors.count=120]',
      'cline-xml@reworded',
    ]);
    expect(header.strategies[2]?.variant).toMatchObject({ base: 'crowded', sweep: { 'distractors.count': 120 } });
    // the sweep flag is in the effective config: replay and regrade rebuild the same strategies from it
    expect((header.config.variants as { sweep?: unknown }[])[0]?.sweep).toEqual({ 'distractors.count': [0, 120] });
  });

  it('each variant reaches the prompt, and calls are still judged against the tools as served', () => {
    const first = (strategy: string) =>
      recordsOf(strategy, 'sim:oracle').find((r) => r.case === 'read-q1-en')?.transcript.turns[0]?.request;
    const plain = first('native-functions');
    const none = first('native-functions@crowded[distractors.count=0]');
    const crowded = first(SWEPT);
    // no distractor: the same tools, in the variant's (shuffled) order
    const sorted = (tools: typeof plain) => (tools?.tools ?? []).map((t) => t.name).sort();
    expect(sorted(none)).toEqual(sorted(plain));
    expect(none?.tools?.map((t) => t.name)).not.toEqual(plain?.tools?.map((t) => t.name));
    expect(crowded?.tools).toHaveLength((plain?.tools?.length ?? 0) + 120);
    const names = crowded?.tools?.map((t) => t.name) ?? [];
    expect(names).not.toEqual([...names].sort()); // shuffled
    const reworded = first('full-details@reworded')?.system ?? '';
    expect(reworded).toContain(`Description: ${REWORDED.slice(0, 59)}…`); // truncate: 60
    expect(reworded).toContain('REWORDED-PARAM: the tab to read');
    const headers = [...reworded.matchAll(/^## (\S+)/gm)].map((m) => m[1]);
    expect(headers).toEqual([...headers].sort());
    // an agent style on a variant
    expect(first('cline-xml@reworded')?.system).toContain(`Description: ${REWORDED.slice(0, 59)}…`);
    const bare = first('full-details@bare')?.system ?? '';
    expect(bare).toContain('## read_data_from_excel');
    expect(bare).not.toMatch(/Description:|one of:|default:/);
    // the oracle still passes everywhere: a stripped enum is not a looser schema for the grader
    for (const r of records.filter((x) => x.provider === 'sim:oracle')) {
      expect(grade(r, 'correct-arguments')?.pass ?? true, r.key).toBe(true);
    }
  });

  it('a call to a distractor is answered as unavailable and graded "wrong tool: distractor X instead of Y"', () => {
    const wrong = recordsOf(SWEPT, 'sim:selector').filter((r) =>
      /wrong tool: distractor \S+ instead of \S+/.test(grade(r, 'correct-arguments')?.reason ?? ''),
    );
    expect(wrong.length).toBeGreaterThan(0);
    const r = wrong[0] as CaseRecord;
    const g = grade(r, 'correct-arguments') as Grade;
    expect(g.pass).toBe(false);
    const called = ((g.data as Record<string, unknown>).distractors as string[])[0] as string;
    const exec = r.transcript.turns.flatMap((t) => t.executed).find((x) => x.tool === called);
    expect(exec).toMatchObject({ isError: true, result: expect.stringContaining('is not available right now') });
    // the persona gets worse with the catalog, and better behind a search
    const rate = (s: string) => {
      const graded = recordsOf(s, 'sim:selector')
        .map((x) => grade(x, 'correct-arguments'))
        .filter((x) => x);
      return graded.filter((x) => x?.pass).length / graded.length;
    };
    expect(rate(SWEPT)).toBeLessThan(rate('native-functions') - 0.2);
    expect(rate('tool-search@crowded[distractors.count=120]')).toBeGreaterThan(rate(SWEPT) + 0.2);
  });

  it('tool search, native and xml-tags: searches load the tools, are reported, and are never a call to grade', () => {
    for (const s of [
      'tool-search@crowded[distractors.count=120]',
      'tool-search(method=regex,protocol=xml-tags)@crowded[distractors.count=120]',
    ]) {
      const mine = recordsOf(s, 'sim:oracle');
      expect(mine.length).toBeGreaterThan(0);
      for (const r of mine) {
        const ts = grade(r, 'tool-search');
        if (!ts) continue; // an irrelevance case
        expect(ts.pass, `${r.key}: ${ts.reason}`).toBe(true);
        expect(ts.data?.searches).toBeGreaterThan(0);
        const searches = r.transcript.turns.flatMap((t) => t.executed).filter((x) => x.loaded);
        expect(searches.length).toBe(ts.data?.searches);
        const ca = grade(r, 'correct-arguments') as Grade;
        expect(ca.reason).not.toContain('tool_search');
        expect(ca.data?.hallucinated).toEqual([]);
      }
    }
    const xml = recordsOf(
      'tool-search(method=regex,protocol=xml-tags)@crowded[distractors.count=120]',
      'sim:oracle',
    )[0];
    expect(xml?.protocol).toBe('xml-tags');
    expect(xml?.transcript.turns[0]?.request.system).toContain('- pattern (string, required)');
  });

  it('run.json and summary.md show the confusion table, which equals a recomputation from run.jsonl', () => {
    const outcome: Record<string, string> = {
      right: 'right',
      'wrong-arguments': 'wrongArguments',
      'other-tool': 'otherTool',
      distractor: 'distractor',
      hallucinated: 'hallucinated',
      'no-call': 'noCall',
    };
    const tools = new Map<string, Map<string, Record<string, number>>>();
    const confusions = new Map<string, Map<string, number>>();
    for (const r of records) {
      if (r.error) continue;
      const cell = `${r.renderer}|${r.provider}`;
      for (const s of (grade(r, 'correct-arguments')?.data?.selections ?? []) as {
        expected: string;
        called: string | null;
        how: string;
      }[]) {
        const byTool = tools.get(cell) ?? new Map<string, Record<string, number>>();
        tools.set(cell, byTool);
        const t = byTool.get(s.expected) ?? { expected: 0 };
        byTool.set(s.expected, t);
        t.expected = (t.expected ?? 0) + 1;
        const k = outcome[s.how] as string;
        t[k] = (t[k] ?? 0) + 1;
        if (['other-tool', 'distractor', 'hallucinated'].includes(s.how)) {
          const c = confusions.get(cell) ?? new Map<string, number>();
          confusions.set(cell, c);
          const key = `${s.expected}>${s.called}>${s.how}`;
          c.set(key, (c.get(key) ?? 0) + 1);
        }
      }
    }
    const cells = runJson.presentation.cells;
    expect(cells.length).toBe(header.strategies.length * 2);
    let wrongTool = 0;
    for (const c of cells) {
      const cell = `${c.renderer}|${c.provider}`;
      const mine = tools.get(cell) ?? new Map();
      expect(c.tools.length, cell).toBe(mine.size);
      for (const t of c.tools) {
        const want = mine.get(t.tool as string) ?? {};
        for (const k of ['expected', ...Object.values(outcome)])
          expect(t[k], `${cell} ${t.tool} ${k}`).toBe(want[k] ?? 0);
      }
      const recomputed = confusions.get(cell) ?? new Map();
      expect(c.confusions.length).toBe(recomputed.size);
      for (const x of c.confusions) expect(x.count).toBe(recomputed.get(`${x.expected}>${x.called}>${x.how}`));
      wrongTool += c.confusions.length;
    }
    expect(wrongTool).toBeGreaterThan(0);
    const summary = readFileSync(join(runDir, 'summary.md'), 'utf8');
    expect(summary).toContain('## Why strategies fail');
    expect(summary).toMatch(
      /\| native-functions@crowded\[distractors\.count=120\] \| \S+ \| (distractor )?\S+ \| \d+ \|/,
    );
    expect(summary).toContain('## Sweeps');
    expect(summary).toContain('| native-functions @ crowded · distractors.count | 0 | 120 |');
    expect(summary).toContain('## Tool search');
  });

  it('regrade and replay of the run reproduce its grades and its confusion table', async () => {
    const regraded = await runCliAnywhere(['regrade', runDir, '--out', join(dir, 'regraded')], dir);
    expect(regraded.stderr).toContain(`${records.length} records regraded, 0 with changed grades`);
    const again = JSON.parse(readFileSync(join(dir, 'regraded', 'run.json'), 'utf8'));
    expect(again.presentation).toEqual(runJson.presentation);
    const replayed = await runCliAnywhere(['replay', runDir, '-q'], dir);
    expect(replayed.code).toBe(0);
    const replayDir = runDirFrom(replayed.stderr, dir);
    const byKey = new Map(records.map((r) => [r.key, r.grades]));
    const replay = readRecords(join(replayDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
    expect(replay).toHaveLength(records.length);
    for (const r of replay) expect(r.grades, r.key).toEqual(byKey.get(r.key));
    expect(JSON.parse(readFileSync(join(replayDir, 'run.json'), 'utf8')).presentation).toEqual(runJson.presentation);
  }, 240_000);

  it('render --variant prints the first request the run sent (a sweep point by its name)', async () => {
    const res = await runCliAnywhere(
      [
        'render',
        '-s',
        'excel',
        '--case',
        'read-q1-en',
        '-r',
        'native-functions',
        '--variant',
        'crowded[distractors.count=120]',
        '-c',
        join(dir, 'toolgauge.config.yaml'),
        '--json',
      ],
      dir,
    );
    expect(res.stderr).toBe('');
    const printed = JSON.parse(res.stdout);
    const sent = recordsOf(SWEPT, 'sim:oracle').find((r) => r.case === 'read-q1-en')?.transcript.turns[0]?.request;
    expect(printed.tools).toEqual(sent?.tools);
    expect(printed.system).toBe(sent?.system);
  });

  it('report.html: the why-it-fails view and the sweep charts count what run.json counts, and run nothing', async (ctx) => {
    const report: ReportPage | undefined = await openReport(join(runDir, 'report.html'), ctx);
    if (!report) return;
    const { page, clean } = report;
    for (const c of runJson.presentation.cells.filter((x) => x.tools.length > 0)) {
      const block = page.locator(
        `details.why-cell[data-renderer="${c.renderer.replace(/"/g, '\\"')}"][data-provider="${c.provider}"]`,
      );
      const expected = c.tools.reduce((n, t) => n + Number(t.expected), 0);
      const right = c.tools.reduce((n, t) => n + Number(t.right), 0);
      expect(await block.getAttribute('data-expected')).toBe(String(expected));
      expect(await block.getAttribute('data-right')).toBe(String(right));
      const counts = await block
        .locator('tr.confusion')
        .evaluateAll((rows) =>
          rows.map(
            (r) =>
              `${r.getAttribute('data-expected')}>${r.getAttribute('data-called')}>${r.getAttribute('data-how')}=${r.getAttribute('data-count')}`,
          ),
        );
      expect(counts.sort()).toEqual(c.confusions.map((x) => `${x.expected}>${x.called}>${x.how}=${x.count}`).sort());
    }
    const evilShown = await page.locator('#why').innerText();
    const sweeps = runJson.presentation.sweeps;
    expect(sweeps.length).toBeGreaterThan(0);
    for (const s of sweeps) {
      for (const p of s.points) {
        const pt = page.locator(
          `#sweeps .provider[data-provider="${s.provider}"] svg[data-x="value"] g.sweep-pt[data-strategy="${p.strategy.replace(/"/g, '\\"')}"]`,
        );
        expect(await pt.getAttribute('data-pass')).toBe(String(p.graders['correct-arguments']?.pass));
        expect(await pt.getAttribute('data-n')).toBe(String(p.graders['correct-arguments']?.n));
      }
    }
    // the look-alike distractor (from a tools file) was taken for read_data_from_excel: its markup is shown as text,
    // and clean() finds no element it could have made
    expect(evilShown).toContain('read_data_from_excel_sheet');
    expect(evilShown).toContain(EVIL);
    await clean();
    await page.close();
  });
});

describe('bad presentation input: one line naming where and the fix, exit 2', () => {
  it.each([
    [['--variant', 'nope'], /--variant nope: no such variant; defined: none, crowded, reworded, bare/],
    [['--sweep', 'order=1,2'], /--sweep order=1,2: 'order' is not a numeric variant field/],
    [
      ['--variant', '{name: big, distractors: {from: [coder], count: 500}}'],
      /variant big\[?.*distractors.count 500 but its sources offer only \d+ tools/,
    ],
    [
      ['--variant', '{name: odd, distractors: {from: [no-such-thing], count: 1}}'],
      /distractor source 'no-such-thing' is none of: a bundled server \(excel, economist, coder\)/,
    ],
  ])('%j', async (args, message) => {
    const res = await runCliAnywhere(
      ['eval', '-c', join(dir, 'toolgauge.config.yaml'), '--filter', 'excel/read-q1-en', '-q', ...args],
      dir,
    );
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(message);
  });
});
