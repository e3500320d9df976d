import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PromptfooGradeContext } from '../src/export/promptfoo-case.js';
import { resolveGrader } from '../src/plugins/index.js';
import { ROOT } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';
import { HAVE_PROMPTFOO, runPromptfoo, SKIP_MESSAGE } from './promptfoo-helpers.js';

const tempDir = useTempDirs();

if (!HAVE_PROMPTFOO) console.warn(SKIP_MESSAGE);

interface Component {
  pass: boolean;
  reason: string;
  assertion: { value: string };
}
interface PfResult {
  success: boolean;
  provider: { label: string };
  vars: { id: string };
  gradingResult: { componentResults: Component[] };
  response: { output: string; metadata: { toolCalls: { name: string }[]; toolgauge: PromptfooGradeContext } };
}

const GRADER_OF: Record<string, string> = {
  parseable: 'parseable',
  correctArguments: 'correct-arguments',
  markdownWrapped: 'markdown-wrapped',
  continuedAfterResults: 'continued-after-results',
  noCall: 'no-call',
};

describe.skipIf(!HAVE_PROMPTFOO)('promptfoo eval of examples/promptfoo (real promptfoo, offline)', () => {
  it('reports the passes and failures toolgauge graders give', { timeout: 180_000 }, async () => {
    const out = join(tempDir('tg-pf-out-'), 'out.json');
    const run = await runPromptfoo(
      ['eval', '--no-cache', '--no-write', '--no-share', '--no-table', '--no-progress-bar', '-o', out],
      join(ROOT, 'examples/promptfoo'),
    );
    // promptfoo exits 100 when a test failed: the fence-wrapper persona fences one call.
    expect(run.code, run.stderr + run.stdout).toBe(100);
    const json = JSON.parse(readFileSync(out, 'utf8')) as { results: { results: PfResult[] } };
    const results = json.results.results;
    expect(results).toHaveLength(6);
    let checked = 0;
    for (const r of results) {
      const ctx = r.response.metadata.toolgauge;
      expect(ctx.transcript.turns.length).toBeGreaterThan(0);
      for (const c of r.gradingResult.componentResults) {
        const fn = c.assertion.value.split(':').at(-1) ?? '';
        const name = GRADER_OF[fn];
        expect(name, c.assertion.value).toBeDefined();
        // The grade promptfoo recorded is the toolgauge grader's verdict on the transcript promptfoo returned.
        const grade = (await resolveGrader(name!, ROOT, () => 'test')).grade({
          case: ctx.case,
          transcript: ctx.transcript,
          protocol: ctx.protocol,
          tools: ctx.tools,
        });
        expect(c.pass).toBe(grade ? grade.pass : true);
        if (grade) expect(c.reason).toBe(`${name}: ${grade.reason}`);
        checked++;
      }
    }
    expect(checked).toBe(30);
    const row = (persona: string, id: string) => {
      const r = results.find((x) => x.provider.label.includes(`(${persona})`) && x.vars.id === id);
      if (!r) throw new Error(`no result for ${persona}/${id}`);
      return r;
    };
    const verdicts = (r: PfResult) =>
      Object.fromEntries(r.gradingResult.componentResults.map((c) => [c.assertion.value.split(':').at(-1), c.pass]));
    for (const id of ['read-sheet1-zh', 'read-q1-en', 'capital-irrelevant'])
      expect(row('oracle', id).success).toBe(true);
    const oracleRead = row('oracle', 'read-q1-en');
    expect(oracleRead.response.metadata.toolCalls.map((c) => c.name)).toEqual(['read_data_from_excel']);
    expect(oracleRead.response.output).toMatch(/Laptop/);
    const fenced = row('fence-wrapper', 'read-sheet1-zh');
    expect(fenced.success).toBe(false);
    expect(verdicts(fenced)).toMatchObject({ parseable: false, markdownWrapped: false });
    expect(
      fenced.gradingResult.componentResults.find((c) => c.assertion.value.endsWith(':markdownWrapped'))?.reason,
    ).toMatch(/fence/);
  });
});
