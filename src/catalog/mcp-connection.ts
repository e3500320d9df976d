import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { builtinServers } from '../../mock-servers/mcp/index.js';
import type { ServerSpec } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { errorMessage, ToolgaugeError } from '../errors.js';

export interface ToolCallOutcome {
  text: string;
  isError: boolean;
}

/** One live MCP client session to one server (in-process, spawned over stdio, or dialled over HTTP). */
export interface McpConnection {
  name: string;
  listTools(): Promise<ToolDef[]>;
  callTool(tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<ToolCallOutcome>;
  /** False once the transport closed or a call hung: the pool replaces it before the next case. */
  healthy(): boolean;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'toolgauge', version: '0.1.0' };
const STDERR_TAIL = 2000;

export async function connectServer(name: string, spec: ServerSpec, baseDir: string): Promise<McpConnection> {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  let healthy = true;
  let stderrTail = '';
  let server: Server | undefined;
  client.onclose = () => {
    healthy = false;
  };
  try {
    if ('builtin' in spec) {
      const factory = builtinServers[spec.builtin as keyof typeof builtinServers];
      if (!factory) throw new ToolgaugeError('UNKNOWN_SERVER', `unknown built-in server '${spec.builtin}'`);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const created = factory.create();
      server = created;
      await created.connect(serverSide);
      await client.connect(clientSide);
    } else if ('command' in spec) {
      const [command, ...args] = spec.command as [string, ...string[]];
      const transport = new StdioClientTransport({
        command,
        args,
        // The SDK passes the child only a handful of variables unless we pass env ourselves.
        env: { ...getDefaultEnvironment(), ...(spec.env ?? {}) },
        cwd: spec.cwd ?? baseDir,
        stderr: 'pipe',
      });
      (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => {
        stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      await client.connect(transport);
    } else {
      const transport = new StreamableHTTPClientTransport(
        new URL(spec.url),
        spec.headers ? { requestInit: { headers: spec.headers } } : undefined,
      );
      await client.connect(transport);
    }
  } catch (e) {
    await client.close().catch(() => {});
    if (e instanceof ToolgaugeError) throw e;
    const tail = stderrTail.trim() ? ` — server stderr: ${stderrTail.trim().split('\n').slice(-3).join(' | ')}` : '';
    throw new ToolgaugeError('SERVER_START', `MCP server '${name}' failed to start: ${errorMessage(e)}${tail}`, {
      server: name,
    });
  }

  return {
    name,
    healthy: () => healthy,
    async listTools() {
      const tools: ToolDef[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        for (const t of page.tools) {
          tools.push({
            name: t.name,
            ...(t.title ? { title: t.title } : {}),
            ...(t.description !== undefined ? { description: t.description } : {}),
            inputSchema: t.inputSchema as ToolDef['inputSchema'],
            server: name,
            ...(t.annotations ? { annotations: t.annotations as Record<string, unknown> } : {}),
          });
        }
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    async callTool(tool, args, timeoutMs) {
      try {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs });
        const content = Array.isArray(result.content) ? result.content : [];
        const text = content
          .map((c: { type: string; text?: string }) => (c.type === 'text' ? (c.text ?? '') : `[${c.type} content]`))
          .join('\n');
        const structured = !text && result.structuredContent ? JSON.stringify(result.structuredContent) : '';
        return { text: text || structured, isError: result.isError === true };
      } catch (e) {
        const message = errorMessage(e);
        // Protocol-level errors for a call (e.g. invalid params from a strict server) are model-visible data.
        if (/MCP error -326(02|01)/.test(message)) return { text: message, isError: true };
        healthy = false;
        const timedOut = /timed out|timeout/i.test(message);
        throw new ToolgaugeError(
          timedOut ? 'SERVER_TIMEOUT' : 'SERVER_CRASH',
          `MCP server '${name}' ${timedOut ? `did not answer ${tool} within ${timeoutMs} ms` : `failed during ${tool}: ${message}`}`,
          { server: name, tool },
        );
      }
    },
    async close() {
      healthy = false;
      await client.close().catch(() => {});
      await server?.close().catch(() => {});
    },
  };
}
