import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gradeCommand } from '../src/cli/grade-command.js';
import { parseResponse } from '../src/parse/index.js';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, ROOT, readRecords } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

/**
 * The 2,060 recorded replies BFCL decoded, rewritten as a function-calling API returns them: the same calls with the
 * provider-safe tool names a native API requires (`math.factorial` → `math_factorial`), once as native `tool_calls`
 * and once as `<tool_call>` text. Every verdict must equal the verdict on the reply as the model wrote it: a name the
 * application had to rewrite is not a hallucinated tool.
 */
const RECORDED = join(FIXTURES, 'bfcl-recorded');
const CATEGORIES = ['simple_python', 'multiple', 'parallel', 'live_simple'];

interface Verdicts {
  asWritten: Map<string, boolean>;
  native: Map<string, boolean>;
  text: Map<string, boolean>;
  renamedLines: number;
  lines: number;
}

const byModel = new Map<string, Verdicts>();

async function grade(suite: string, outputs: string, out: string): Promise<Map<string, boolean>> {
  const code = await gradeCommand({ suite, outputs, out, quiet: true, grader: ['correct-arguments'] });
  expect(code).toBe(0);
  const runDir = join(out, readdirSync(out)[0] as string);
  const records = readRecords(join(runDir, 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');
  return new Map(records.map((r) => [r.case, r.grades.find((g) => g.grader === 'correct-arguments')?.pass === true]));
}

const safe = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, '_');

beforeAll(async () => {
  const work = tempDir('tg-bfcl-safe-');
  for (const model of readdirSync(RECORDED, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const v: Verdicts = { asWritten: new Map(), native: new Map(), text: new Map(), renamedLines: 0, lines: 0 };
    for (const category of CATEGORIES) {
      const file = join(RECORDED, model.name, `${category}.jsonl`);
      const suite = join(ROOT, 'suites', 'bfcl', `${category}.yaml`);
      const nativeLines: string[] = [];
      const textLines: string[] = [];
      const written: string[] = [];
      for (const text of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
        const line = JSON.parse(text) as { id: string; raw: string; bfcl_error_type: string | null };
        if (line.bfcl_error_type === 'ast_decoder:decoder_failed') continue;
        const calls = parseResponse({ text: line.raw, toolCalls: [] }, 'python-call').calls;
        if (calls.length === 0) continue;
        v.lines++;
        if (calls.some((c) => safe(c.name) !== c.name)) v.renamedLines++;
        written.push(JSON.stringify({ case: line.id, output: line.raw }));
        nativeLines.push(
          JSON.stringify({
            case: line.id,
            tool_calls: calls.map((c, i) => ({
              id: `call_${i}`,
              type: 'function',
              function: { name: safe(c.name), arguments: JSON.stringify(c.args) },
            })),
          }),
        );
        textLines.push(
          JSON.stringify({
            case: line.id,
            output: calls
              .map((c) => `<tool_call>\n${JSON.stringify({ name: safe(c.name), arguments: c.args })}\n</tool_call>`)
              .join('\n'),
          }),
        );
      }
      const dir = join(work, model.name, category);
      for (const [name, lines] of [
        ['written', written],
        ['native', nativeLines],
        ['text', textLines],
      ] as const) {
        const outputs = join(work, `${model.name}-${category}-${name}.jsonl`);
        writeFileSync(outputs, `${lines.join('\n')}\n`);
        const verdicts = await grade(suite, outputs, join(dir, name));
        const into = name === 'written' ? v.asWritten : name === 'native' ? v.native : v.text;
        for (const [id, pass] of verdicts) into.set(`${category}/${id}`, pass);
      }
    }
    byModel.set(model.name, v);
  }
}, 180_000);

describe('provider-safe tool names on real replies (BFCL, function-calling form)', () => {
  it('42% of the replies call a tool whose name a native API must rewrite (874 of 2,059)', () => {
    expect([...byModel.values()].map((v) => [v.lines, v.renamedLines])).toEqual([
      [1038, 442],
      [1021, 432],
    ]);
    for (const v of byModel.values()) {
      expect(v.lines).toBeGreaterThan(900);
      const share = v.renamedLines / v.lines;
      expect(share).toBeGreaterThan(0.4);
      expect(share).toBeLessThan(0.45);
    }
  });

  it('native tool_calls under provider-safe names get the verdict the reply got as written, line by line', () => {
    for (const v of byModel.values()) {
      expect(v.native.size).toBe(v.asWritten.size);
      const differ = [...v.asWritten].filter(([id, pass]) => v.native.get(id) !== pass).map(([id]) => id);
      expect(differ).toEqual([]);
      // the comparison has teeth: most lines pass, so a renamed call graded as hallucinated would show
      expect([...v.native.values()].filter(Boolean).length).toBeGreaterThan(v.native.size / 2);
    }
  });

  it('<tool_call> text under provider-safe names gets the same verdicts', () => {
    for (const v of byModel.values()) {
      const differ = [...v.asWritten].filter(([id, pass]) => v.text.get(id) !== pass).map(([id]) => id);
      expect(differ).toEqual([]);
    }
  });
});
