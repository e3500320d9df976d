import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SuiteSchema } from '../../../src/config/suite-schema.js';
import { callText, connectInMemory } from '../../../tests/helpers/builtin-server-client.js';
import { EXCEL_TOOL_NAMES, excelServer } from './index.js';

const SUITE_PATH = fileURLToPath(new URL('../../../suites/excel.yaml', import.meta.url));
const suite = SuiteSchema.parse(parse(readFileSync(SUITE_PATH, 'utf8')));

/**
 * Arguments from BFCL-style expectations: the first allowed value of each parameter that is not "" ("" means
 * "may be omitted"); with `minimal`, every parameter that may be omitted is left out.
 */
function argsOf(args: Record<string, unknown[]> | undefined, minimal: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, allowed] of Object.entries(args ?? {})) {
    if (minimal && allowed.includes('')) continue;
    const value = allowed.find((v) => v !== '');
    if (value !== undefined) out[key] = value;
  }
  return out;
}

describe('suites/excel.yaml', () => {
  it('parses with SuiteSchema and has the required mix of cases', () => {
    expect(suite.servers).toEqual({ excel: { builtin: 'excel' } });
    const cases = suite.cases;
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(cases.filter((c) => c.expect.no_call).length).toBeGreaterThanOrEqual(4);
    expect(
      cases.filter((c) => (c.expect.calls?.length ?? 0) >= 2 && c.expect.order === 'parallel').length,
    ).toBeGreaterThanOrEqual(2);
    expect(
      cases.filter((c) => (c.expect.calls?.length ?? 0) >= 2 && c.expect.order === 'sequence').length,
    ).toBeGreaterThanOrEqual(2);
    expect(cases.filter((c) => c.expect.answer_mentions?.length).length).toBeGreaterThanOrEqual(10);
    expect(cases.filter((c) => /[\u4e00-\u9fff]/.test(c.prompt)).length).toBeGreaterThanOrEqual(10);
    expect(cases.filter((c) => !/[\u4e00-\u9fff]/.test(c.prompt)).length).toBeGreaterThanOrEqual(10);
    const prompts = cases.map((c) => c.prompt);
    expect(prompts).toContain('帮我读取 test.xlsx 文件的 Sheet1 工作表的内容');
    expect(prompts).toContain('查看 excel 文件 myfile.xlsx 的内容有什么');
    expect(prompts.find((p) => p.includes('#,##0.00'))).toContain('#,##0.00 数字格式');
  });

  it('only names tools the excel server has, and every case exercises one of them or none', () => {
    const used = new Set(suite.cases.flatMap((c) => (c.expect.calls ?? []).map((call) => call.tool)));
    for (const tool of used) expect(EXCEL_TOOL_NAMES).toContain(tool);
    expect(used.size).toBe(25);
  });

  for (const c of suite.cases.filter((x) => x.expect.calls)) {
    it.each([
      ['first allowed values', false],
      ['optional parameters omitted', true],
    ])(
      `${c.id}: every expected call succeeds with %s and the results hold each answer_mentions fact`,
      async (_, minimal) => {
        const client = await connectInMemory(excelServer);
        const texts: string[] = [];
        for (const call of c.expect.calls ?? []) {
          const r = await callText(client, call.tool, argsOf(call.args, minimal));
          expect(r.isError, `${call.tool}: ${r.text}`).toBe(false);
          texts.push(r.text);
        }
        const all = texts.join('\n');
        for (const fact of c.expect.answer_mentions ?? []) expect(all, fact).toContain(fact);
        await client.close();
      },
    );
  }
});
