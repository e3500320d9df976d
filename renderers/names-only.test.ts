import { describe, expect, it } from 'vitest';
import { ToolgaugeError } from '../src/errors.js';
import { catalogOf, excelTools, readCase, renderInput } from '../tests/fixtures/excel-catalog.js';
import { renderOnce } from '../tests/helpers/render-once.js';
import { namesOnly } from './names-only.js';
import { propertiesOf, rootContext } from './parts/schema-walk.js';

describe('names-only renderer', () => {
  it('renders the broken prompt of case study 000', () => {
    const out = renderOnce(namesOnly, renderInput());
    expect(out.protocol).toBe('xml-tags');
    expect(out.tools).toBeUndefined();
    expect(out.stop).toBeUndefined();
    expect(out.messages).toEqual([{ role: 'user', content: readCase.prompt }]);
    expect(out.system).toMatchInlineSnapshot(`
      "You are a helpful AI assistant.

      Capabilities:
      - Tool Calling: You can use external tools to accomplish tasks
        Available tools: create_chart, format_range, read_data_from_excel, write_data_to_excel

      # Tool calling

      When you need a tool, write a <tool_call> tag holding a JSON object with the tool "name" and its "arguments":

      <tool_call>{"name":"tool_name","arguments":{"parameter_name":"value"}}</tool_call>

      - To call several tools, write one <tool_call> tag per call.
      - Tool results come back in the next user message, one <tool_result name="tool_name">…</tool_result> block per call (with error="true" when the tool failed). Use them to answer the user.
      - When no tool is needed, or once you have what you need, answer in plain text without any call."
    `);
  });

  it('shows no parameter name and no description anywhere', () => {
    const out = renderOnce(namesOnly, renderInput());
    // Tool names may contain words that are also parameter names (read_data_… vs data); strip them first.
    let text = out.system;
    for (const t of excelTools) text = text.replaceAll(t.name, '');
    for (const tool of excelTools) {
      expect(text).not.toContain(tool.description ?? '');
      for (const p of propertiesOf(tool.inputSchema, rootContext(tool.inputSchema))) {
        expect(text).not.toMatch(new RegExp(`\\b${p.name}\\b`));
      }
    }
  });

  it('puts the case system text first, sorts tools, and validates options', () => {
    const out = renderOnce(
      namesOnly,
      renderInput({
        case: { ...readCase, system: 'Answer in Chinese.' },
        catalog: catalogOf([...excelTools].reverse()),
      }),
    );
    expect(out.system.startsWith('Answer in Chinese.\n\nYou are a helpful AI assistant.')).toBe(true);
    expect(out.system).toContain(
      'Available tools: create_chart, format_range, read_data_from_excel, write_data_to_excel',
    );
    expect(renderOnce(namesOnly, renderInput({ options: { noFences: true } })).system).toContain(
      'Output the <tool_call> tags directly!',
    );
    expect(() => renderOnce(namesOnly, renderInput({ options: { nofences: true } }))).toThrow(ToolgaugeError);
  });

  it('omits the tool section when the catalog is empty', () => {
    expect(renderOnce(namesOnly, renderInput({ catalog: catalogOf([]) })).system).toBe(
      'You are a helpful AI assistant.',
    );
  });
});
