import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { formatPath, loadYamlFile } from '../config/load-yaml.js';
import { nestingError, tooDeepPath } from '../config/nesting-limit.js';
import type { JSONSchema } from '../contracts/json-schema.js';
import { ToolgaugeError } from '../errors.js';
import { displayPath } from '../util/display-path.js';

/** A tool read from a tools file: its name, description and input schema, whatever API shape the file used. */
export interface FileTool {
  name: string;
  description?: string;
  /** Absent when the file gave none (an OpenAI function may omit `parameters`). */
  inputSchema?: JSONSchema;
}

const JsonSchemaObject = z.record(z.string(), z.unknown());

/** MCP `Tool` (`tools/list`): extra keys (title, annotations, outputSchema) are allowed and ignored. */
const McpTool = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  inputSchema: JsonSchemaObject,
});

/** Anthropic's tool definition (`cache_control` and other extra keys allowed). */
const AnthropicTool = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: JsonSchemaObject,
});

/** An OpenAI function: Chat Completions' `function` object, a Responses API tool, or a legacy `functions` entry. */
const OpenAiFunction = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  parameters: JsonSchemaObject.optional(),
});

/** Chat Completions' `{type: 'function', function: {…}}`. */
const OpenAiTool = z.object({ type: z.literal('function').optional(), function: OpenAiFunction });

const SHAPES =
  'an MCP tool {"name", "inputSchema"}, an OpenAI tool {"type": "function", "function": {"name", "parameters"}} or an Anthropic tool {"name", "input_schema"}';

type Located = (path: readonly PropertyKey[]) => string;

/**
 * Reads a file of tool definitions, the tools a reply's request offered: a JSON array of MCP tools, an MCP
 * `tools/list` result (`{tools: […]}`, also inside a JSON-RPC response's `result`), OpenAI's `tools` array (Chat
 * Completions or Responses shape, or legacy `functions`) or Anthropic's. Each entry's shape is told by its keys, so a
 * problem names the entry and the key it lacks (`tools.json:4:5: [1].input_schema: …`). Any problem is a usage error.
 */
export function loadToolsFile(file: string, flag = '--tools'): FileTool[] {
  const shown = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a folder' : String(e);
    throw new ToolgaugeError('USAGE', `${flag} ${shown}: ${why}; pass a JSON file of tool definitions`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new ToolgaugeError(
      'USAGE',
      `${flag} ${shown}${positionOf(text, message)}: not JSON (${message}); write a JSON array of tools or a tools/list result`,
    );
  }
  if (tooDeepPath(value)) throw nestingError('USAGE', file, `${flag} ${shown}`);
  // Located messages re-read the file with the YAML parser (which reads JSON): only when something is wrong. JSON it
  // rejects (a repeated key) is still named by its path.
  const locate: Located = (path) => {
    try {
      return loadYamlFile(file, z.unknown(), 'USAGE').locate(path);
    } catch {
      return `${shown}: ${formatPath(path)}`;
    }
  };
  const { list, path } = toolList(value, locate, flag);
  if (list.length === 0) {
    throw new ToolgaugeError('USAGE', `${flag} ${locate(path)}: no tools in the file; write at least one: ${SHAPES}`);
  }
  return list.map((entry, i) => toolOf(entry, [...path, i], locate, flag));
}

/** The array of tool entries and where it sits in the document. */
function toolList(value: unknown, locate: Located, flag: string): { list: unknown[]; path: PropertyKey[] } {
  if (Array.isArray(value)) return { list: value, path: [] };
  if (isObject(value)) {
    if (Array.isArray(value.tools)) return { list: value.tools, path: ['tools'] };
    const result = value.result;
    if (isObject(result) && Array.isArray(result.tools)) return { list: result.tools, path: ['result', 'tools'] };
  }
  throw new ToolgaugeError(
    'USAGE',
    `${flag} ${locate([])}: expected a JSON array of tools or a tools/list result {"tools": [...]}`,
  );
}

function toolOf(entry: unknown, path: PropertyKey[], locate: Located, flag: string): FileTool {
  if (!isObject(entry)) {
    throw new ToolgaugeError('USAGE', `${flag} ${locate(path)}: not a tool; write ${SHAPES}`);
  }
  const check = <S extends z.ZodType>(schema: S, value: unknown, at: PropertyKey[]): z.infer<S> => {
    const parsed = schema.safeParse(value, { reportInput: true });
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = [...at, ...(issue?.path ?? [])];
    throw new ToolgaugeError('USAGE', `${flag} ${locate(where)}: ${describe(issue)}; expected ${SHAPES}`);
  };
  const described = (t: { description?: string | undefined }) =>
    t.description !== undefined ? { description: t.description } : {};
  if ('function' in entry) {
    const t = check(OpenAiTool, entry, path).function;
    return { name: t.name, ...described(t), ...(t.parameters ? { inputSchema: t.parameters } : {}) };
  }
  if ('input_schema' in entry) {
    const t = check(AnthropicTool, entry, path);
    return { name: t.name, ...described(t), inputSchema: t.input_schema };
  }
  if ('parameters' in entry) {
    const t = check(OpenAiFunction, entry, path);
    return { name: t.name, ...described(t), ...(t.parameters ? { inputSchema: t.parameters } : {}) };
  }
  const t = check(McpTool, entry, path);
  return { name: t.name, ...described(t), inputSchema: t.inputSchema };
}

function describe(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'not a tool';
  if (issue.code === 'invalid_type') {
    const expected = issue.expected === 'record' ? 'object' : issue.expected;
    if (issue.input === undefined) return `missing required key (expected ${expected})`;
    const got = Array.isArray(issue.input) ? 'array' : issue.input === null ? 'null' : typeof issue.input;
    return `expected ${expected}, got ${got}`;
  }
  return issue.message;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `:line:col` of the offset JSON.parse's message names, or nothing when it names none. */
function positionOf(text: string, message: string): string {
  const m = /at position (\d+)/.exec(message);
  if (!m) return '';
  const offset = Number(m[1]);
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `:${line}:${offset - start + 1}`;
}
