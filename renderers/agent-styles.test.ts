import { describe, expect, it } from 'vitest';
import { excelTools, renderInput } from '../tests/fixtures/excel-catalog.js';
import { renderOnce } from '../tests/helpers/render-once.js';
import { claudeCode } from './claude-code.js';
import { clineXml } from './cline-xml.js';
import { hermes } from './hermes.js';
import { protocolOfPrompt } from './parts/call-protocol.js';

describe('agent-style renderers', () => {
  it('cline-xml: each tool an element with its usage, one tool per message, the tool-named-xml protocol', () => {
    const r = renderOnce(clineXml, renderInput());
    expect(r.protocol).toBe('tool-named-xml');
    expect(r.maxCallsPerTurn).toBe(1);
    expect(r.system).toContain('## write_data_to_excel');
    expect(r.system).toContain('- filepath: (required) Path to Excel file');
    expect(r.system).toContain('- start_cell: (optional) Cell to start writing to');
    expect(r.system).toContain(
      '<write_data_to_excel>\n<filepath>filepath here</filepath>\n<sheet_name>sheet_name here</sheet_name>\n<data>data here</data>\n</write_data_to_excel>',
    );
    expect(protocolOfPrompt(r.system)).toBe('tool-named-xml');
    expect(
      renderOnce(clineXml, renderInput({ options: { oneToolPerMessage: false } })).maxCallsPerTurn,
    ).toBeUndefined();
  });

  it('hermes: one JSON signature per tool inside <tools>, <tool_call> replies', () => {
    const r = renderOnce(hermes, renderInput());
    expect(r.protocol).toBe('xml-tags');
    const inner = /<tools>\n([\s\S]*?)\n<\/tools>/.exec(r.system)?.[1] ?? '';
    const sigs = inner
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; function: { name: string; parameters: unknown } });
    expect(sigs.map((s) => s.function.name)).toEqual([...excelTools.map((t) => t.name)].sort());
    expect(sigs[0]?.type).toBe('function');
    expect(protocolOfPrompt(r.system)).toBe('xml-tags');
  });

  it('claude-code: native tools named mcp__server__tool, valid for the API, mapped back to the catalog tool', () => {
    const long = { ...(excelTools[0] as (typeof excelTools)[number]), name: `a_${'x'.repeat(70)}` };
    const input = renderInput();
    const catalog = { ...input.catalog, tools: [...input.catalog.tools, long] };
    const r = renderOnce(claudeCode, { ...input, catalog, provider: { id: 'openai:m', kind: 'openai' } });
    expect(r.protocol).toBe('native');
    const read = r.tools?.find((t) => t.target.tool === 'read_data_from_excel');
    expect(read?.name).toBe('mcp__excel__read_data_from_excel');
    for (const t of r.tools ?? []) expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(r.tools?.find((t) => t.target.tool === long.name)?.name).toMatch(/^mcp__excel__a_x+_[0-9a-f]{8}$/);
    expect(r.system).toContain('mcp__<server>__<tool>');
  });

  it("every agent style follows a variant's order", () => {
    const input = renderInput();
    const reversed = { ...input.catalog, tools: [...input.catalog.tools].reverse(), ordered: true };
    const names = [...input.catalog.tools].reverse().map((t) => t.name);
    const cline = renderOnce(clineXml, { ...input, catalog: reversed }).system;
    expect([...cline.matchAll(/^## (\S+)/gm)].map((m) => m[1])).toEqual(names);
    const code = renderOnce(claudeCode, { ...input, catalog: reversed });
    expect(code.tools?.map((t) => t.target.tool)).toEqual(names);
  });
});
