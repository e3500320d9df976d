import Anthropic from '@anthropic-ai/sdk';
import { Ollama, type Tool as OllamaTool } from 'ollama';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderKind, RenderedTool } from '../src/contracts/model.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { catalogOf, excelTools, readCase, renderInput } from '../tests/fixtures/excel-catalog.js';
import { startCaptureServer } from '../tests/helpers/capture-server.js';
import { renderOnce } from '../tests/helpers/render-once.js';
import { nativeFunctions } from './native-functions.js';
import { asObjectSchema } from './parts/schema-normalize.js';

// Typed mappings: if RenderedTool stopped fitting an SDK's tool type, tsc would fail here.
function toOpenAI(tools: RenderedTool[]): OpenAI.Chat.Completions.ChatCompletionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: asObjectSchema(t.parameters) },
  }));
}
function toAnthropic(tools: RenderedTool[]): Anthropic.Messages.Tool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: asObjectSchema(t.parameters) }));
}
function toOllama(tools: RenderedTool[]): OllamaTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: asObjectSchema(t.parameters) },
  }));
}

const render = (kind: ProviderKind, tools: ToolDef[] = excelTools, options: Record<string, unknown> = {}) =>
  renderOnce(nativeFunctions, renderInput({ provider: { id: `${kind}:m`, kind }, catalog: catalogOf(tools), options }));

describe('native-functions renderer', () => {
  it('returns native tools and a short tool-use section', () => {
    const out = render('openai');
    expect(out.protocol).toBe('native');
    expect(out.tools?.map((t) => t.name)).toEqual([
      'create_chart',
      'format_range',
      'read_data_from_excel',
      'write_data_to_excel',
    ]);
    expect(out.tools?.map((t) => t.target)).toEqual(
      excelTools.map((t) => ({ server: 'excel', tool: t.name })).sort((a, b) => (a.tool < b.tool ? -1 : 1)),
    );
    expect(out.system).toMatchInlineSnapshot(`
      "You are a helpful AI assistant.

      ====

      TOOL USE

      You have access to a set of tools. Use the provider-native tool-calling mechanism to call them. Do not include XML markup or examples of tool calls in your reply. You may call several tools in one response when they do not depend on each other. Tool results come back as tool messages: use them to answer the user. When no tool is needed, or once you have what you need, answer the user directly."
    `);
    expect(out.system).not.toContain('filepath');
    expect(out.tools?.find((t) => t.name === 'write_data_to_excel')).toMatchInlineSnapshot(`
      {
        "description": "Write data to Excel worksheet",
        "name": "write_data_to_excel",
        "parameters": {
          "properties": {
            "data": {
              "description": "List of lists containing data",
              "items": {
                "items": {
                  "anyOf": [
                    {
                      "type": "string",
                    },
                    {
                      "type": "number",
                    },
                  ],
                },
                "type": "array",
              },
              "type": "array",
            },
            "filepath": {
              "description": "Path to Excel file",
              "type": "string",
            },
            "sheet_name": {
              "description": "Name of worksheet",
              "type": "string",
            },
            "start_cell": {
              "default": "A1",
              "description": "Cell to start writing to",
              "type": "string",
            },
          },
          "required": [
            "filepath",
            "sheet_name",
            "data",
          ],
          "type": "object",
        },
        "target": {
          "server": "excel",
          "tool": "write_data_to_excel",
        },
      }
    `);
    expect(out.messages).toEqual([{ role: 'user', content: readCase.prompt }]);
  });

  it('option summary lists names with one-line descriptions', () => {
    expect(render('openai', excelTools, { summary: true }).system).toMatchInlineSnapshot(`
      "You are a helpful AI assistant.

      ====

      TOOL USE

      You have access to a set of tools. Use the provider-native tool-calling mechanism to call them. Do not include XML markup or examples of tool calls in your reply. You may call several tools in one response when they do not depend on each other. Tool results come back as tool messages: use them to answer the user. When no tool is needed, or once you have what you need, answer the user directly.

      Available tools:
      - create_chart: Create a chart in a worksheet
      - format_range: Apply formatting to a range of cells
      - read_data_from_excel: Read data from Excel worksheet with cell metadata including validation rules
      - write_data_to_excel: Write data to Excel worksheet"
    `);
  });

  it('normalises schemas: drops $schema, keeps $defs for OpenAI/Anthropic, inlines refs for Ollama', () => {
    const read = render('openai').tools?.find((t) => t.name === 'read_data_from_excel');
    expect(read?.parameters.$schema).toBeUndefined();
    const chartOpenAI = render('openai').tools?.find((t) => t.name === 'create_chart');
    expect(JSON.stringify(chartOpenAI?.parameters)).toContain('"$ref":"#/$defs/Series"');
    expect(chartOpenAI?.parameters.$defs).toBeDefined();
    const chartOllama = render('ollama').tools?.find((t) => t.name === 'create_chart');
    expect(JSON.stringify(chartOllama?.parameters)).not.toContain('$ref');
    expect(chartOllama?.parameters).toMatchObject({
      properties: { series: { type: 'array', items: { type: 'object', required: ['values_range'] } } },
    });
  });

  it("renders for a user's provider of a kind of its own: refs inlined, names of at most 64 characters", () => {
    const long = { ...excelTools[0]!, name: `x${'y'.repeat(100)}` };
    const out = render('my-gateway', [...excelTools, long]);
    expect(JSON.stringify(out.tools?.find((t) => t.name === 'create_chart')?.parameters)).not.toContain('$ref');
    expect(Math.max(...(out.tools ?? []).map((t) => t.name.length))).toBe(64);
    expect(render('anthropic', [long]).tools?.[0]?.name).toHaveLength(101);
  });

  it('makes names valid per provider and keeps the way back in target', () => {
    const long = 'x'.repeat(100);
    const tools: ToolDef[] = [
      { server: 'coder', name: 'read_file', inputSchema: { type: 'object' } },
      { server: 'fs', name: 'read_file', inputSchema: { type: 'object' } },
      { server: 'fs', name: 'list.dir/v2', inputSchema: { type: 'object' } },
      { server: 'fs', name: long, inputSchema: { type: 'object' } },
    ];
    const openai = render('openai', tools).tools ?? [];
    expect(openai.map((t) => t.name)).toEqual([
      'coder__read_file',
      'list_dir_v2',
      'fs__read_file',
      expect.stringMatching(/^x{55}_[0-9a-f]{8}$/),
    ]);
    expect(openai.map((t) => t.target.tool)).toEqual(['read_file', 'list.dir/v2', 'read_file', long]);
    for (const t of openai) expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const anthropic = render('anthropic', tools).tools ?? [];
    expect(anthropic[3]?.name).toBe(long);
    expect(anthropic[3]?.parameters).toEqual({ type: 'object', properties: {} });
  });

  describe('through the real SDK clients over loopback HTTP', () => {
    let server: Awaited<ReturnType<typeof startCaptureServer>>;
    beforeAll(async () => {
      server = await startCaptureServer();
    });
    afterAll(() => server.close());

    it('OpenAI chat completions sends the tools unchanged', async () => {
      const out = render('openai');
      const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
      await client.chat.completions.create({
        model: 'm',
        messages: [
          { role: 'system', content: out.system },
          { role: 'user', content: readCase.prompt },
        ],
        tools: toOpenAI(out.tools ?? []),
      });
      const body = server.bodies.at(-1)?.body as { tools: { function: { parameters: { type: string } } }[] };
      expect(body.tools).toEqual(toOpenAI(out.tools ?? []));
      expect(body.tools[0]?.function.parameters.type).toBe('object');
    });

    it('Anthropic messages sends the tools unchanged', async () => {
      const out = render('anthropic');
      const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
      await client.messages.create({
        model: 'm',
        max_tokens: 16,
        system: out.system,
        messages: [{ role: 'user', content: readCase.prompt }],
        tools: toAnthropic(out.tools ?? []),
      });
      expect(server.bodies.at(-1)?.body.tools).toEqual(toAnthropic(out.tools ?? []));
    });

    it('Ollama chat sends the tools unchanged', async () => {
      const out = render('ollama');
      const client = new Ollama({ host: server.url });
      await client.chat({
        model: 'm',
        messages: [{ role: 'user', content: readCase.prompt }],
        tools: toOllama(out.tools ?? []),
        stream: false,
      });
      const body = server.bodies.at(-1)?.body;
      expect(server.bodies.at(-1)?.url).toBe('/api/chat');
      expect(body?.tools).toEqual(toOllama(out.tools ?? []));
    });
  });
});
