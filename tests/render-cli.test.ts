import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSchemaCache } from '../src/catalog/schema-cache.js';
import { ServerPool } from '../src/catalog/server-pool.js';
import { loadSuite } from '../src/config/load-suite.js';
import type { RenderedTool } from '../src/contracts/model.js';
import type { ToolDef } from '../src/contracts/tool.js';
import type { CaseRecord, RunHeader } from '../src/run-log/schema.js';
import { FIXTURES, readRecords, runDirFrom } from './cli-helpers.js';
import { runCliWithEnv, writeConfig } from './fixtures/providers-mock/mock-run.js';

const SUITE = join(FIXTURES, 'mini.yaml');

async function liveTools(): Promise<ToolDef[]> {
  const loaded = loadSuite(SUITE);
  const pool = new ServerPool();
  try {
    const session = await pool.openCase(loaded, [...loaded.cases][0]!);
    await session.release();
    return session.catalog.tools;
  } finally {
    await pool.closeAll();
  }
}

describe('toolgauge render (real CLI process)', () => {
  it('prints the header, prompt size and every part of the request, with no API key in the environment', async () => {
    const res = await runCliWithEnv(
      [
        'render',
        '--suite',
        'excel',
        '--case',
        'read-sheet1-zh',
        '--renderer',
        'native-functions',
        '-p',
        'anthropic:claude',
      ],
      { ANTHROPIC_API_KEY: '' },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toBe(
      '# excel/read-sheet1-zh · renderer native-functions · provider anthropic:claude · protocol native',
    );
    expect(lines[1]).toMatch(/^# prompt size: [1-9]\d* tokens \(o200k_base; an estimate for non-OpenAI models\)$/);
    expect(lines.slice(2, 4)).toEqual(['', '=== system ===']);
    expect(res.stdout).toContain('\n=== user ===\n帮我读取 test.xlsx 文件的 Sheet1 工作表的内容\n');
    const m = /\n=== tools \((\d+)\) ===\n([\s\S]*?)\n(?:=== |$)/.exec(res.stdout);
    expect(m).not.toBeNull();
    const tools = JSON.parse(m![2]!) as RenderedTool[];
    expect(tools).toHaveLength(Number(m![1]));
    expect(tools.map((t) => t.target.tool)).toContain('read_data_from_excel');
  });

  it('a bad --case is a usage error (exit 2) naming the valid ids', async () => {
    const res = await runCliWithEnv(['render', '--suite', 'excel', '--case', 'nope', '--renderer', 'names-only'], {});
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^toolgauge: --case nope: no such case in excel; valid: read-sheet1-zh, /);
  });
});

describe('cache drift, prompt size and simulated labels in the run log and summary (real CLI eval)', () => {
  it('cached-schemas cases record how the cache differs from the live server; the summary names the suite', async () => {
    const live = await liveTools();
    const [first, second, ...rest] = live;
    // The committed snapshot is stale: one tool since removed from the server, one changed, one not yet cached.
    const stale: ToolDef[] = [
      { ...first!, description: `${first!.description ?? ''} (old wording)` },
      ...rest,
      { name: 'retired_tool', server: 'excel', description: 'Gone.', inputSchema: { type: 'object', properties: {} } },
    ];
    const { dir, file } = writeConfig({
      suites: [SUITE],
      renderers: ['cached-schemas', 'full-details'],
      providers: ['sim:oracle', 'sim:guesser'],
    });
    writeSchemaCache(dir, 'mini', stale);
    const res = await runCliWithEnv(['eval', '-c', file, '-q'], {});
    expect(res.code, res.stderr).toBe(0);
    const runDir = runDirFrom(res.stderr);
    const records = readRecords(join(runDir, 'run.jsonl'));
    const cases = records.filter((r): r is CaseRecord => r.type === 'case');
    expect(cases).toHaveLength(12);
    const drift = {
      added: [`excel/${second!.name}`],
      removed: ['excel/retired_tool'],
      changed: [`excel/${first!.name}`],
    };
    for (const c of cases) {
      expect(c.error, c.key).toBeUndefined();
      if (c.renderer === 'cached-schemas') expect(c.catalogDrift, c.key).toEqual(drift);
      else expect(c.catalogDrift, c.key).toBeUndefined();
    }
    // The model saw the cache, not the live server: the missing tool is absent from its prompt.
    const cached = cases.find((c) => c.renderer === 'cached-schemas')!;
    expect(cached.transcript.turns[0]!.request.system).toContain('retired_tool');

    const summary = readFileSync(join(runDir, 'summary.md'), 'utf8');
    const driftLines = summary.split('\n').filter((l) => l.includes('Schema cache drift'));
    expect(driftLines).toEqual([
      `**Schema cache drift** in suite mini: the cache differs from the live server (\`+excel/${second!.name}, -excel/retired_tool, ~excel/${first!.name}\`); run \`toolgauge schemas refresh\`.`,
    ]);

    // Prompt size per renderer sits next to the pass rates, and every simulated row says so.
    const header = records[0] as RunHeader;
    // The overview table: its header, the rule, then one row per cell up to the blank line.
    const all = summary.split('\n');
    const at = all.findIndex((l) => l.startsWith('| renderer | provider |'));
    const columns = all[at]!.split('|').map((s) => s.trim());
    const rows = all.slice(at + 2, all.indexOf('', at));
    expect(rows).toHaveLength(4);
    expect(columns.at(-2)).toBe('prompt tokens');
    expect(columns).toEqual(expect.arrayContaining(['parseable', 'correct-arguments']));
    // Every other table naming providers (the per-grader matrices) labels them as simulated too.
    for (const l of all.filter((x) => x.startsWith('| renderer \\ provider |'))) {
      expect(l).toBe('| renderer \\ provider | sim:oracle (simulated) | sim:guesser (simulated) |');
    }
    for (const row of rows) {
      const cells = row.split('|').map((s) => s.trim());
      expect(cells[2]).toMatch(/^sim:(oracle|guesser) \(simulated\)$/);
      const tokens = Number(cells.at(-2));
      const mine = cases.filter((c) => c.renderer === cells[1] && `${c.provider} (simulated)` === cells[2]);
      expect(tokens).toBe(Math.round(mine.reduce((n, c) => n + c.promptTokens, 0) / mine.length));
      expect(tokens).toBeGreaterThan(0);
    }
    expect(header.providers.every((p) => p.simulated)).toBe(true);
  });
});
