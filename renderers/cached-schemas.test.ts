import { describe, expect, it } from 'vitest';
import { catalogOf, excelTools, readCase, renderInput } from '../tests/fixtures/excel-catalog.js';
import { renderOnce } from '../tests/helpers/render-once.js';
import { cachedSchemas } from './cached-schemas.js';

const cacheInput = (overrides: Parameters<typeof renderInput>[0] = {}) =>
  renderInput({ catalog: catalogOf(excelTools, 'cache'), ...overrides });

describe('cached-schemas renderer', () => {
  it('renders compact signatures in a cacheable prefix', () => {
    expect(cachedSchemas.usesCache).toBe(true);
    const out = renderOnce(cachedSchemas, cacheInput());
    expect(out.protocol).toBe('xml-tags');
    expect(out.tools).toBeUndefined();
    expect(out.cacheHints).toEqual({ stablePrefixChars: out.system.length, cachePrefix: true });
    expect(out.system).toMatchInlineSnapshot(`
      "You are a helpful AI assistant.

      # Tools

      You have access to these tools:

      - create_chart(filepath: string, chart_type: "line" | "bar" | "pie", target_cell: string, layout?: {title: string, axes?: {x_title?: string, y_title?: string}}, series: {label?: string, values_range: string}[]) — Create a chart in a worksheet
      - format_range(filepath: string, sheet_name: string, start_cell: string, end_cell?: string, bold?: boolean = false, alignment?: "left" | "center" | "right" = "left", font_size?: integer = 11) — Apply formatting to a range of cells
      - read_data_from_excel(filepath: string, sheet_name: string, start_cell?: string = "A1", end_cell?: string | null, preview_only?: boolean = false) — Read data from Excel worksheet with cell metadata including validation rules
      - write_data_to_excel(filepath: string, sheet_name: string, data: (string | number)[][], start_cell?: string = "A1") — Write data to Excel worksheet

      # Tool calling

      When you need a tool, write a <tool_call> tag holding a JSON object with the tool "name" and its "arguments":

      <tool_call>{"name":"tool_name","arguments":{"parameter_name":"value"}}</tool_call>

      - To call several tools, write one <tool_call> tag per call.
      - Tool results come back in the next user message, one <tool_result name="tool_name">…</tool_result> block per call (with error="true" when the tool failed). Use them to answer the user.
      - When no tool is needed, or once you have what you need, answer in plain text without any call."
    `);
  });

  it('shows every required parameter without ? and optional ones with ? and defaults', () => {
    const { system } = renderOnce(cachedSchemas, cacheInput());
    expect(system).toContain(
      '- read_data_from_excel(filepath: string, sheet_name: string, start_cell?: string = "A1", end_cell?: string | null, preview_only?: boolean = false) — Read data from Excel worksheet',
    );
    expect(system).toContain('data: (string | number)[][]');
    expect(system).toContain('series: {label?: string, values_range: string}[]');
  });

  it('keeps the prefix byte-identical across cases; case system text comes after it', () => {
    const a = renderOnce(cachedSchemas, cacheInput());
    const b = renderOnce(
      cachedSchemas,
      cacheInput({ case: { ...readCase, id: 'other', prompt: 'Write A1', system: 'Reply in Chinese.' } }),
    );
    const stable = a.cacheHints?.stablePrefixChars ?? 0;
    expect(stable).toBeGreaterThan(500);
    expect(b.cacheHints?.stablePrefixChars).toBe(stable);
    expect(b.system.slice(0, stable)).toBe(a.system.slice(0, stable));
    expect(b.system.slice(stable)).toBe('\n\nReply in Chinese.');
    // Catalog order does not matter either.
    const reversed = renderOnce(cachedSchemas, cacheInput({ catalog: catalogOf([...excelTools].reverse(), 'cache') }));
    expect(reversed.system).toBe(a.system);
  });

  it('writes nothing about cache drift into the prompt', () => {
    const drifted = {
      ...catalogOf(excelTools, 'cache'),
      drift: { added: ['new_tool'], removed: [], changed: ['format_range'] },
    };
    const out = renderOnce(cachedSchemas, cacheInput({ catalog: drifted }));
    expect(out.system).toBe(renderOnce(cachedSchemas, cacheInput()).system);
    expect(out.system).not.toContain('new_tool');
  });

  it('native protocol also returns tools, with signatures using the same names', () => {
    const twin = { ...excelTools[2]!, server: 'x.y' };
    const out = renderOnce(
      cachedSchemas,
      cacheInput({
        options: { protocol: 'native' },
        catalog: catalogOf([...excelTools, twin], 'cache'),
        provider: { id: 'openai:gpt-4o', kind: 'openai' },
      }),
    );
    expect(out.protocol).toBe('native');
    expect(out.tools?.map((t) => t.name)).toContain('x_y__format_range');
    expect(out.system).toContain('- x_y__format_range(filepath: string');
    expect(out.system).toContain('- excel__format_range(filepath: string');
    expect(out.system).toContain('TOOL USE');
    expect(out.system).not.toContain('<tool_call>');
  });
});
