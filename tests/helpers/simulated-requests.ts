/** Hand-built requests and a tiny feedback loop for the persona tests (not a test file itself). */

import type { PersonaRequest } from '../../providers/simulated/types.js';
import type {
  ExpectedCall,
  Message,
  ModelRequest,
  ModelResponse,
  Oracle,
  Protocol,
  Provider,
  RenderedTool,
} from '../../src/contracts/index.js';

export interface ToolSketch {
  name: string;
  description: string;
  params: { name: string; type: string; required: boolean; description: string }[];
}

export const excelTools: ToolSketch[] = [
  {
    name: 'read_data_from_excel',
    description: 'Read data from Excel worksheet with cell metadata including validation rules',
    params: [
      { name: 'filepath', type: 'string', required: true, description: 'Path to Excel file' },
      { name: 'sheet_name', type: 'string', required: true, description: 'Name of worksheet' },
      { name: 'start_cell', type: 'string', required: false, description: 'Starting cell' },
      { name: 'end_cell', type: 'string', required: false, description: 'Ending cell' },
    ],
  },
  {
    name: 'write_data_to_excel',
    description: 'Write data to Excel worksheet',
    params: [
      { name: 'filepath', type: 'string', required: true, description: 'Path to Excel file' },
      { name: 'sheet_name', type: 'string', required: true, description: 'Name of worksheet' },
      { name: 'data', type: 'array', required: true, description: 'List of lists containing data' },
    ],
  },
];

export const readSheet: ExpectedCall = {
  tool: 'read_data_from_excel',
  args: { filepath: ['test.xlsx'], sheet_name: ['Sheet1'], start_cell: ['A1', ''], end_cell: ['', 'Z100'] },
};

/** Case study 000's broken prompt: tool names only. */
export function namesOnlySystem(tools: ToolSketch[]): string {
  return [
    'You are a helpful assistant.',
    '- Tool Calling: You can use external tools to accomplish tasks',
    `  Available tools: ${tools.map((t) => t.name).join(', ')}`,
  ].join('\n');
}

/** Case study 000's fixed prompt (every parameter), with case study 001's no-fence rule as an option. */
export function fullDetailsSystem(tools: ToolSketch[], opts: { noFences?: boolean } = {}): string {
  const lines = ['- Tool Calling: You have access to these tools:', ''];
  for (const t of tools) {
    lines.push(`  **${t.name}**`, `    Description: ${t.description}`, '    Parameters:');
    for (const p of t.params) {
      lines.push(`      - ${p.name} ${p.type}: ${p.description} (${p.required ? 'required' : 'optional'})`);
    }
    lines.push('');
  }
  if (opts.noFences) {
    lines.push('When you need to use a tool, DIRECTLY output the following format (WITHOUT markdown code blocks):');
    lines.push('<tool_call>{"name": "<tool>", "arguments": {...}}</tool_call>');
    lines.push('**CRITICAL:** Do NOT wrap the tool call in markdown code blocks (``` or ```tool_call).');
  } else {
    lines.push('When you need to use a tool, format your request as follows:', '```');
    lines.push('<tool_call>{"name": "<tool>", "arguments": {...}}</tool_call>', '```');
  }
  return lines.join('\n');
}

/** Native tool definitions with MCP-mangled names (`excel__read_data_from_excel`). */
export function nativeTools(tools: ToolSketch[], server = 'excel'): RenderedTool[] {
  return tools.map((t) => ({
    name: `${server}__${t.name}`,
    description: t.description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(t.params.map((p) => [p.name, { type: p.type, description: p.description }])),
      required: t.params.filter((p) => p.required).map((p) => p.name),
    },
    target: { server, tool: t.name },
  }));
}

export interface RequestSketch {
  system: string;
  prompt?: string;
  protocol?: Protocol;
  tools?: RenderedTool[];
  oracle?: Partial<Oracle>;
  caseId?: string;
  repeat?: number;
  seed?: number;
  turn?: number;
  messages?: Message[];
}

/** A request with the expectations a persona reads beside it (`simulate` passes them as the runner does). */
export function makeRequest(s: RequestSketch): PersonaRequest {
  const prompt = s.prompt ?? '帮我读取 test.xlsx 文件的 Sheet1 工作表的内容';
  return {
    system: s.system,
    messages: s.messages ?? [{ role: 'user', content: prompt }],
    protocol: s.protocol ?? 'xml-tags',
    ...(s.tools ? { tools: s.tools } : {}),
    oracle: { calls: [readSheet], noCall: false, answerMentions: [], ...s.oracle },
    meta: {
      caseId: s.caseId ?? 'read-sheet',
      repeat: s.repeat ?? 0,
      seed: s.seed ?? 1,
      renderer: 'test',
      turn: s.turn ?? 0,
    },
  };
}

export interface TextCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The strict `<tool_call>{json}</tool_call>` shape (what the oracle must write for xml-tags). */
export function xmlCalls(text: string): TextCall[] {
  return [...text.matchAll(/<tool_call>([\s\S]*?)<\/tool_call>/g)].map((m) => JSON.parse(m[1] ?? '') as TextCall);
}

/**
 * Appends the reply and fed-back results the way the runner's feedback does (native: tool messages;
 * text: one user message of `<tool_result>` blocks), with results produced by `result(name)`.
 */
export function feedBack<R extends ModelRequest>(
  request: R,
  response: ModelResponse,
  calledNames: string[],
  result: (name: string) => string,
): R {
  const messages: Message[] = [...request.messages];
  if (request.protocol === 'native') {
    messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
    for (const c of response.toolCalls)
      messages.push({ role: 'tool', toolCallId: c.id, name: c.name, content: result(c.name) });
  } else {
    messages.push({ role: 'assistant', content: response.text });
    const blocks = calledNames.map((n) => `<tool_result name="${n}">${result(n)}</tool_result>`);
    messages.push({ role: 'user', content: blocks.join('\n') });
  }
  return { ...request, messages, meta: { ...request.meta, turn: request.meta.turn + 1 } };
}

/** Asks a simulated provider as the runner does: the request, and its expectations as `generate`'s third argument. */
export function simulate(provider: Provider, request: PersonaRequest, signal?: AbortSignal): Promise<ModelResponse> {
  const { oracle, ...sent } = request;
  return provider.generate(sent, signal, oracle);
}
