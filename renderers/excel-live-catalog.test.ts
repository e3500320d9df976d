import { beforeAll, describe, expect, it } from 'vitest';
import { excelServer } from '../mock-servers/mcp/excel/index.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { catalogOf, readCase } from '../tests/fixtures/excel-catalog.js';
import { connectInMemory } from '../tests/helpers/builtin-server-client.js';
import { renderOnce } from '../tests/helpers/render-once.js';
import { renderers } from './index.js';

/**
 * Inline snapshots of every renderer on the real excel MCP server's catalog (tools/list through the SDK
 * client), narrowed to two tools so the snapshots stay readable; the whole 25-tool catalog is covered by
 * tests/render-all.test.ts.
 */
let tools: ToolDef[] = [];
beforeAll(async () => {
  const client = await connectInMemory(excelServer);
  const listed = await client.listTools();
  await client.close();
  tools = listed.tools
    .filter((t) => t.name === 'read_data_from_excel' || t.name === 'apply_formula')
    .map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema, server: 'excel' }));
});

const render = (name: keyof typeof renderers, kind: 'openai' | 'anthropic' | 'sim' = 'sim') =>
  renderOnce(renderers[name], {
    catalog: catalogOf(tools, name === 'cached-schemas' ? 'cache' : 'live'),
    case: readCase,
    options: {},
    provider: { id: kind === 'sim' ? 'sim:oracle' : `${kind}:model`, kind },
  });

describe('renderers on the real excel catalog', () => {
  it('names-only', () => {
    expect(render('names-only').system).toMatchInlineSnapshot(`
      "You are a helpful AI assistant.

      Capabilities:
      - Tool Calling: You can use external tools to accomplish tasks
        Available tools: apply_formula, read_data_from_excel

      # Tool calling

      When you need a tool, write a <tool_call> tag holding a JSON object with the tool "name" and its "arguments":

      <tool_call>{"name":"tool_name","arguments":{"parameter_name":"value"}}</tool_call>

      - To call several tools, write one <tool_call> tag per call.
      - Tool results come back in the next user message, one <tool_result name="tool_name">…</tool_result> block per call (with error="true" when the tool failed). Use them to answer the user.
      - When no tool is needed, or once you have what you need, answer in plain text without any call."
    `);
  });
  it('full-details', () => {
    expect(render('full-details').system).toMatchInlineSnapshot(`
      "You are a helpful AI assistant.

      # Tools

      You have access to these tools:

      ## apply_formula
      Description: Apply an Excel formula to a cell (with syntax validation) and return the calculated value.
      Parameters:
      - filepath (string, required): Path to the Excel file (e.g. "test.xlsx")
      - sheet_name (string, required): Name of the worksheet (e.g. "Sheet1")
      - cell (string, required): Target cell, e.g. "B7"
      - formula (string, required): Excel formula starting with "=", e.g. "=SUM(B2:B6)"
      Source: excel

      ## read_data_from_excel
      Description: Read data from Excel worksheet with cell metadata including validation rules. Returns one line per row in the form "Sheet1: A1=value, B1=value".
      Parameters:
      - filepath (string, required): Path to the Excel file (e.g. "test.xlsx")
      - sheet_name (string, required): Name of worksheet
      - start_cell (string, optional, default: "A1"): Starting cell (default "A1")
      - end_cell (string, optional): Ending cell (optional; default: the last cell with data)
      - preview_only (boolean, optional, default: false): Whether to return a preview of the first rows only
      Source: excel

      # Tool calling

      When you need a tool, write a <tool_call> tag holding a JSON object with the tool "name" and its "arguments":

      <tool_call>{"name":"tool_name","arguments":{"parameter_name":"value"}}</tool_call>

      - To call several tools, write one <tool_call> tag per call.
      - Tool results come back in the next user message, one <tool_result name="tool_name">…</tool_result> block per call (with error="true" when the tool failed). Use them to answer the user.
      - When no tool is needed, or once you have what you need, answer in plain text without any call."
    `);
  });
  it('cached-schemas', () => {
    expect(render('cached-schemas').system).toMatchInlineSnapshot(`
      "You are a helpful AI assistant.

      # Tools

      You have access to these tools:

      - apply_formula(filepath: string, sheet_name: string, cell: string, formula: string) — Apply an Excel formula to a cell (with syntax validation) and return the calculated value.
      - read_data_from_excel(filepath: string, sheet_name: string, start_cell?: string = "A1", end_cell?: string, preview_only?: boolean = false) — Read data from Excel worksheet with cell metadata including validation rules. Returns one line per row in the form "Sheet1: A1=value, B1=value".

      # Tool calling

      When you need a tool, write a <tool_call> tag holding a JSON object with the tool "name" and its "arguments":

      <tool_call>{"name":"tool_name","arguments":{"parameter_name":"value"}}</tool_call>

      - To call several tools, write one <tool_call> tag per call.
      - Tool results come back in the next user message, one <tool_result name="tool_name">…</tool_result> block per call (with error="true" when the tool failed). Use them to answer the user.
      - When no tool is needed, or once you have what you need, answer in plain text without any call."
    `);
  });
  it('native-functions (OpenAI tool definitions)', () => {
    const out = render('native-functions', 'openai');
    expect(out.system).toMatchInlineSnapshot(`
      "You are a helpful AI assistant.

      ====

      TOOL USE

      You have access to a set of tools. Use the provider-native tool-calling mechanism to call them. Do not include XML markup or examples of tool calls in your reply. You may call several tools in one response when they do not depend on each other. Tool results come back as tool messages: use them to answer the user. When no tool is needed, or once you have what you need, answer the user directly."
    `);
    expect(out.tools).toMatchInlineSnapshot(`
      [
        {
          "description": "Apply an Excel formula to a cell (with syntax validation) and return the calculated value.",
          "name": "apply_formula",
          "parameters": {
            "properties": {
              "cell": {
                "description": "Target cell, e.g. "B7"",
                "type": "string",
              },
              "filepath": {
                "description": "Path to the Excel file (e.g. "test.xlsx")",
                "type": "string",
              },
              "formula": {
                "description": "Excel formula starting with "=", e.g. "=SUM(B2:B6)"",
                "type": "string",
              },
              "sheet_name": {
                "description": "Name of the worksheet (e.g. "Sheet1")",
                "type": "string",
              },
            },
            "required": [
              "filepath",
              "sheet_name",
              "cell",
              "formula",
            ],
            "type": "object",
          },
          "target": {
            "server": "excel",
            "tool": "apply_formula",
          },
        },
        {
          "description": "Read data from Excel worksheet with cell metadata including validation rules. Returns one line per row in the form "Sheet1: A1=value, B1=value".",
          "name": "read_data_from_excel",
          "parameters": {
            "properties": {
              "end_cell": {
                "description": "Ending cell (optional; default: the last cell with data)",
                "type": "string",
              },
              "filepath": {
                "description": "Path to the Excel file (e.g. "test.xlsx")",
                "type": "string",
              },
              "preview_only": {
                "default": false,
                "description": "Whether to return a preview of the first rows only",
                "type": "boolean",
              },
              "sheet_name": {
                "description": "Name of worksheet",
                "type": "string",
              },
              "start_cell": {
                "default": "A1",
                "description": "Starting cell (default "A1")",
                "type": "string",
              },
            },
            "required": [
              "filepath",
              "sheet_name",
            ],
            "type": "object",
          },
          "target": {
            "server": "excel",
            "tool": "read_data_from_excel",
          },
        },
      ]
    `);
  });
});
