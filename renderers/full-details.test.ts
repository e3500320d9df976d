import { describe, expect, it } from 'vitest';
import { catalogOf, excelTools, readCase, renderInput } from '../tests/fixtures/excel-catalog.js';
import { renderOnce } from '../tests/helpers/render-once.js';
import { fullDetails } from './full-details.js';
import { describeType } from './parts/schema-describe.js';
import { asSchema } from './parts/schema-ref.js';
import { propertiesOf, rootContext } from './parts/schema-walk.js';

describe('full-details renderer', () => {
  it('renders every tool with description and parameters (xml-tags by default, no stop sequence)', () => {
    const out = renderOnce(fullDetails, renderInput());
    expect(out.protocol).toBe('xml-tags');
    expect(out.stop).toBeUndefined();
    expect(out.tools).toBeUndefined();
    expect(out.system).toMatchInlineSnapshot(`
      "You are a helpful AI assistant.

      # Tools

      You have access to these tools:

      ## create_chart
      Description: Create a chart in a worksheet
      The chart is anchored at target_cell.
      Parameters:
      - filepath (string, required): Path to Excel file
      - chart_type (string, required, one of: "line", "bar", "pie"): Kind of chart
      - target_cell (string, required): Where to place the chart
      - layout (object, optional): Chart layout
        - title (string, required): Chart title
        - axes (object, optional)
          - x_title (string, optional): X axis title
          - y_title (string, optional): Y axis title
      - series (array<object>, required): Data series to plot
        - label (string, optional): Legend label
        - values_range (string, required): Cell range of the values, e.g. B2:B10
      Source: excel

      ## format_range
      Description: Apply formatting to a range of cells
      Parameters:
      - filepath (string, required): Path to Excel file
      - sheet_name (string, required): Name of worksheet
      - start_cell (string, required): Top-left cell of the range
      - end_cell (string, optional): Bottom-right cell of the range
      - bold (boolean, optional, default: false): Bold text
      - alignment (string, optional, one of: "left", "center", "right", default: "left"): Horizontal alignment
      - font_size (integer, optional, default: 11): Font size in points
      Source: excel

      ## read_data_from_excel
      Description: Read data from Excel worksheet with cell metadata including validation rules
      Parameters:
      - filepath (string, required): Path to Excel file
      - sheet_name (string, required): Name of worksheet
      - start_cell (string, optional, default: "A1"): Starting cell
      - end_cell (string | null, optional): Ending cell
      - preview_only (boolean, optional, default: false): Whether to return preview only
      Source: excel

      ## write_data_to_excel
      Description: Write data to Excel worksheet
      Parameters:
      - filepath (string, required): Path to Excel file
      - sheet_name (string, required): Name of worksheet
      - data (array<array<string | number>>, required): List of lists containing data
      - start_cell (string, optional, default: "A1"): Cell to start writing to
      Source: excel

      # Tool calling

      When you need a tool, write a <tool_call> tag holding a JSON object with the tool "name" and its "arguments":

      <tool_call>{"name":"tool_name","arguments":{"parameter_name":"value"}}</tool_call>

      - To call several tools, write one <tool_call> tag per call.
      - Tool results come back in the next user message, one <tool_result name="tool_name">…</tool_result> block per call (with error="true" when the tool failed). Use them to answer the user.
      - When no tool is needed, or once you have what you need, answer in plain text without any call."
    `);
  });

  it('contains every parameter name, type, required flag and description of every tool', () => {
    const { system } = renderOnce(fullDetails, renderInput());
    for (const tool of excelTools) {
      const block = system.slice(system.indexOf(`## ${tool.name}\n`)).split('\n## ')[0] ?? '';
      expect(block).toContain(`Description: ${tool.description}`);
      const ctx = rootContext(tool.inputSchema);
      for (const p of propertiesOf(tool.inputSchema, ctx)) {
        const type = describeType({ ...p.schema, enum: undefined }, ctx);
        const line = `- ${p.name} (${type}, ${p.required ? 'required' : 'optional'}`;
        expect(block).toContain(line);
        const description = asSchema(p.schema)?.description;
        if (typeof description === 'string')
          expect(block).toMatch(new RegExp(`- ${p.name} \\(.*\\): ${escapeRegExp(description)}`));
      }
    }
  });

  it('shows nested structure, enums, defaults, unions and resolved $refs', () => {
    const { system } = renderOnce(fullDetails, renderInput());
    expect(system).toContain('- data (array<array<string | number>>, required): List of lists containing data');
    expect(system).toContain('- alignment (string, optional, one of: "left", "center", "right", default: "left")');
    expect(system).toContain('- end_cell (string | null, optional): Ending cell');
    expect(system).toContain('  - values_range (string, required): Cell range of the values, e.g. B2:B10');
    expect(system).toContain('    - x_title (string, optional): X axis title');
  });

  it('json protocol with examples and the no-fences rule', () => {
    const out = renderOnce(fullDetails, renderInput({ options: { protocol: 'json', examples: true, noFences: true } }));
    expect(out.protocol).toBe('json');
    expect(out.system).toContain(
      'Example: {"name":"read_data_from_excel","arguments":{"filepath":"<filepath>","sheet_name":"<sheet_name>"}}',
    );
    expect(out.system).toContain('Do NOT wrap the JSON in markdown code blocks');
    expect(out.system.slice(out.system.indexOf('# Tool calling'))).toMatchInlineSnapshot(`
      "# Tool calling

      When you need a tool, reply with only a JSON object with the tool "name" and its "arguments", and no other text:

      {"name":"tool_name","arguments":{"parameter_name":"value"}}

      - To call several tools at once, reply with a JSON array of such objects.
      - Tool results come back in the next user message, one <tool_result name="tool_name">…</tool_result> block per call (with error="true" when the tool failed). Use them to answer the user.
      - When no tool is needed, or once you have what you need, answer in plain text without any call.

      **CRITICAL:** Do NOT wrap the JSON in markdown code blocks (\`\`\` or \`\`\`json). Output the JSON object directly!"
    `);
  });

  it('python-call protocol writes BFCL-style examples with Python literals', () => {
    const out = renderOnce(fullDetails, renderInput({ options: { protocol: 'python-call', examples: true } }));
    expect(out.protocol).toBe('python-call');
    expect(out.system).toContain(
      'Example: [create_chart(filepath="<filepath>", chart_type="line", target_cell="<target_cell>", series=[{"values_range": "<values_range>"}])]',
    );
    expect(out.system).toContain(
      '[func_name1(params_name1=params_value1, params_name2=params_value2), func_name2(params)]',
    );
    expect(out.system).not.toContain('**CRITICAL:**');
  });

  it('puts case system first and names tools shared by two servers server__tool', () => {
    const twin = { ...excelTools[1]!, server: 'backup' };
    const out = renderOnce(
      fullDetails,
      renderInput({ case: { ...readCase, system: 'Be brief.' }, catalog: catalogOf([...excelTools, twin]) }),
    );
    expect(out.system.startsWith('Be brief.\n\n')).toBe(true);
    expect(out.system).toContain('## backup__read_data_from_excel\n');
    expect(out.system).toContain('## excel__read_data_from_excel\n');
    expect(out.system).toContain('## write_data_to_excel\n');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
