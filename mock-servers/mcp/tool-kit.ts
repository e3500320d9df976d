import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { JSONSchema } from '../../src/contracts/json-schema.js';

/**
 * Mock tools are data (name, description, JSON Schema) plus a small handler. We use the SDK's low-level
 * `Server` rather than `McpServer.registerTool` because our schemas are literal JSON Schema documents
 * (as real servers publish them, with descriptions, enums and defaults), not zod shapes.
 */
export interface MockTool<S> {
  name: string;
  title?: string;
  description: string;
  inputSchema: JSONSchema;
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  /** Returns a string (sent as text) or any JSON value (sent as pretty JSON text). Throw ToolFailure for a tool error. */
  handler(args: Record<string, unknown>, state: S): unknown | Promise<unknown>;
}

/** A model-visible tool error: becomes `isError: true` with this message, never a protocol error. */
export class ToolFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolFailure';
  }
}

export interface MockServerOptions<S> {
  name: string;
  version: string;
  instructions?: string;
  tools: MockTool<S>[];
  createState(): S;
  /** Page size for tools/list (default: all tools in one page). */
  pageSize?: number;
  /**
   * The state view: a read-only JSON picture of what the tools changed (parameters, cells, files), published as the
   * resource {@link STATE_VIEW_URI} for the harness to read after a case (`expect.state`). Never a tool: a model is
   * not shown it.
   */
  stateView?(state: S): unknown;
}

/** The URI a server publishes its state view under (any MCP server may publish one; docs/multi-turn.md). */
export const STATE_VIEW_URI = 'toolgauge://state';

const ajv = new Ajv({ allErrors: true, strict: false });

export function createMockServer<S>(options: MockServerOptions<S>): Server {
  const state = options.createState();
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  const validators = new Map<string, ValidateFunction>();
  const validatorFor = (tool: MockTool<S>): ValidateFunction => {
    let v = validators.get(tool.name);
    if (!v) {
      v = ajv.compile(tool.inputSchema);
      validators.set(tool.name, v);
    }
    return v;
  };
  const view = options.stateView;
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: { listChanged: false }, ...(view ? { resources: {} } : {}) },
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );
  const listed = options.tools.map((t) => ({
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: t.inputSchema as { type: 'object'; [k: string]: unknown },
    ...(t.annotations ? { annotations: t.annotations } : {}),
  }));
  const pageSize = options.pageSize ?? listed.length;

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = request.params?.cursor ? Number.parseInt(request.params.cursor, 10) || 0 : 0;
    const end = start + pageSize;
    return { tools: listed.slice(start, end), ...(end < listed.length ? { nextCursor: String(end) } : {}) };
  });

  if (view) {
    const resource = {
      uri: STATE_VIEW_URI,
      name: 'state',
      description: `What the tools of ${options.name} changed, as JSON (read by the harness after a case)`,
      mimeType: 'application/json',
    };
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [resource] }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      if (request.params.uri !== STATE_VIEW_URI)
        throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
      return { contents: [{ uri: STATE_VIEW_URI, mimeType: 'application/json', text: JSON.stringify(view(state)) }] };
    });
  }

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) return errorResult(`Unknown tool: ${request.params.name}. Call tools/list for the available tools.`);
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const validate = validatorFor(tool);
    if (!validate(args)) {
      const problems = (validate.errors ?? []).map(describeAjvError).join('; ');
      return errorResult(`Invalid arguments for ${tool.name}: ${problems}`);
    }
    try {
      const value = await tool.handler(args, state);
      const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
      return { content: [{ type: 'text', text }] };
    } catch (e) {
      if (e instanceof ToolFailure) return errorResult(e.message);
      return errorResult(`Internal error in ${tool.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  return server;
}

/** One ajv error as a model-readable phrase; enum errors name the allowed values. */
function describeAjvError(e: ErrorObject): string {
  const where = e.instancePath || '(arguments)';
  const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
  const suffix = e.keyword === 'enum' && allowed ? `: ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return `${where} ${e.message ?? 'is invalid'}${suffix}`;
}

function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}
