import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { builtinServers } from '../../mock-servers/mcp/index.js';
import { STATE_VIEW_URI } from '../../mock-servers/mcp/tool-kit.js';
import type { ServerSpec } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { errorMessage, ToolgaugeError } from '../errors.js';
import { printable } from '../util/printable.js';
import { cappedFetch } from './capped-fetch.js';
import { checkToolDepth, listingBounds } from './listing-bounds.js';
import { type Cancellation, withRequestSignal } from './request-signal.js';
import { MAX_MESSAGE_BYTES, ServerProcessTransport } from './server-process-transport.js';
import { serverWords } from './server-words.js';

export interface ToolCallOutcome {
  text: string;
  isError: boolean;
}

export type { Cancellation } from './request-signal.js';

/** The bounds of a server's start and tool listing: a timeout, the setting it comes from, and a cancellation. */
export interface RequestBounds {
  timeoutMs: number;
  /** Where the timeout is configured (e.g. `timeouts.toolMs`), named in a timeout error. */
  setting?: string;
  cancel?: Cancellation;
  /**
   * Where to say that a server is slow to start: one line when initialize or tools/list has not been answered after
   * {@link SLOW_NOTE_MS} (or half the timeout, if that is shorter), naming the server and how long it may still take.
   */
  notify?: (line: string) => void;
}

/** After this long without an answer to initialize or tools/list, the wait is announced (a start may take minutes). */
export const SLOW_NOTE_MS = 5000;

/** The bounds used when a caller gives none: the default of `timeouts.serverStartMs`. */
export const DEFAULT_BOUNDS: RequestBounds = { timeoutMs: 30_000 };

/** One live MCP client session to one server (in-process, spawned over stdio, or dialled over HTTP). */
export interface McpConnection {
  name: string;
  listTools(bounds?: RequestBounds): Promise<ToolDef[]>;
  callTool(
    tool: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    cancel?: Cancellation,
  ): Promise<ToolCallOutcome>;
  /**
   * The server's state view (the resource {@link STATE_VIEW_URI}, JSON), read after a case: `{ value }`, or `{ error }`
   * when the server publishes none or its text is not JSON. A failed request is an infrastructure error (it throws).
   */
  readState(timeoutMs: number, cancel?: Cancellation): Promise<{ value: unknown } | { error: string }>;
  /** False once the transport closed or a call hung: the pool replaces it before the next case. */
  healthy(): boolean;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'toolgauge', version: '0.1.0' };

const STDERR_TAIL = 2000;

/**
 * Connects to one server and initializes the session within `bounds`: a server that does not answer initialize in
 * time is a SERVER_TIMEOUT naming the server and the timeout; one that cannot start is a SERVER_START.
 */
export async function connectServer(
  name: string,
  spec: ServerSpec,
  baseDir: string,
  bounds: RequestBounds = DEFAULT_BOUNDS,
): Promise<McpConnection> {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  let healthy = true;
  let stderrTail = '';
  let server: Server | undefined;
  let stdio: ServerProcessTransport | undefined;
  let http: StreamableHTTPClientTransport | undefined;
  let httpOverLimit = false;
  client.onclose = () => {
    healthy = false;
  };
  // In-process servers answer at once: they get the timeout but no signal (no AbortSignal made per case for them).
  const inProcess = 'builtin' in spec;
  // Each request of a server toolgauge started gets a signal of its own that follows the case's (request-signal.ts).
  const bounded = <T>(
    timeout: number,
    cancel: Cancellation | undefined,
    run: (options: { timeout: number; signal?: AbortSignal }) => Promise<T>,
  ) => withRequestSignal(inProcess ? undefined : cancel, (signal) => run(signal ? { timeout, signal } : { timeout }));
  /** The typed error for a failed request; `what` is the request (initialize, tools/list, a tool's name). */
  const failure = (e: unknown, what: string, timeoutMs: number, setting: string | undefined, cancel?: Cancellation) => {
    healthy = false;
    // A cancelled request rejects with a "timeout" McpError wrapping the reason: the reason is the truth.
    if (!inProcess && cancel?.signal.aborted) return cancel.signal.reason as unknown;
    if (stdio?.endedBy) {
      return new ToolgaugeError(
        'SERVER_INTERRUPTED',
        `MCP server '${name}' was ended by ${stdio.endedBy} during ${what}, a signal toolgauge did not send (a Ctrl-C that reached it as it started, or a kill)`,
        { server: name, tool: what, signal: stdio.endedBy },
      );
    }
    if (stdio?.overLimit) {
      // An infrastructure error (not the model's), named for what happened, with the limit in its message
      return new ToolgaugeError(
        'TOOL_RESULT_TOO_LARGE',
        `MCP server '${name}' sent a message over the ${MAX_MESSAGE_BYTES}-byte (10 MiB) stdio limit during ${what}: it was not read and the connection was closed (the server did not crash; it is restarted for the next case)`,
        { server: name, tool: what, limitBytes: MAX_MESSAGE_BYTES },
      );
    }
    if (httpOverLimit) {
      return new ToolgaugeError(
        'TOOL_RESULT_TOO_LARGE',
        `MCP server '${name}' answered ${what} with a response over the ${MAX_MESSAGE_BYTES}-byte (10 MiB) limit: the rest was not read and the session was closed (the next case opens a new one)`,
        { server: name, tool: what, limitBytes: MAX_MESSAGE_BYTES },
      );
    }
    if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
      return new ToolgaugeError(
        'SERVER_TIMEOUT',
        `MCP server '${name}' did not answer ${what} within ${timeoutMs} ms${setting ? ` (${setting})` : ''}`,
        { server: name, tool: what, timeoutMs },
      );
    }
    return undefined;
  };
  try {
    if ('builtin' in spec) {
      const factory = builtinServers[spec.builtin as keyof typeof builtinServers];
      if (!factory) throw new ToolgaugeError('UNKNOWN_SERVER', `unknown built-in server '${spec.builtin}'`);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const created = factory.create();
      server = created;
      await created.connect(serverSide);
      await client.connect(clientSide, { timeout: bounds.timeoutMs });
    } else if ('command' in spec) {
      const [command, ...args] = spec.command as [string, ...string[]];
      const child = new ServerProcessTransport({
        command,
        args,
        // Only a handful of variables reach the server unless the suite passes env itself (as the SDK does).
        env: { ...getDefaultEnvironment(), ...(spec.env ?? {}) },
        cwd: spec.cwd ?? baseDir,
      });
      stdio = child;
      child.stderr.on('data', (chunk: Buffer) => {
        stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      const connecting = bounded(bounds.timeoutMs, bounds.cancel, (o) => client.connect(child, o));
      await announcingSlow(connecting, name, 'initialize', bounds);
    } else {
      // Responses are read up to the stdio transport's message limit: past it, the session ends and the request in
      // flight fails as TOOL_RESULT_TOO_LARGE, as over stdio.
      const fetchCapped = cappedFetch(MAX_MESSAGE_BYTES, () => {
        httpOverLimit = true;
        void client.close().catch(() => {});
      });
      const remote = new StreamableHTTPClientTransport(new URL(spec.url), {
        fetch: fetchCapped,
        ...(spec.headers ? { requestInit: { headers: spec.headers } } : {}),
      });
      http = remote;
      const connecting = bounded(bounds.timeoutMs, bounds.cancel, (o) => client.connect(remote, o));
      await announcingSlow(connecting, name, 'initialize', bounds);
    }
  } catch (e) {
    await client.close().catch(() => {});
    await server?.close().catch(() => {});
    if (e instanceof ToolgaugeError) throw e;
    const known = failure(e, 'initialize', bounds.timeoutMs, bounds.setting, bounds.cancel);
    if (known) throw known;
    const tail = stderrTail.trim() ? ` — server stderr: ${stderrTail.trim().split('\n').slice(-3).join(' | ')}` : '';
    throw new ToolgaugeError('SERVER_START', `MCP server '${name}' failed to start: ${serverWords(e)}${tail}`, {
      server: name,
    });
  }

  return {
    name,
    healthy: () => healthy,
    async listTools(list = bounds) {
      const tools: ToolDef[] = [];
      const listing = listingBounds(name);
      let cursor: string | undefined;
      try {
        do {
          const params = cursor ? { cursor } : undefined;
          const request = bounded(list.timeoutMs, list.cancel, (o) => client.listTools(params, o));
          const page = inProcess ? await request : await announcingSlow(request, name, 'tools/list', list);
          for (const t of page.tools) {
            checkToolDepth(name, t);
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
          listing.next(cursor, tools.length);
        } while (cursor);
      } catch (e) {
        if (e instanceof ToolgaugeError && e.code === 'SERVER_BAD_RESPONSE') {
          healthy = false;
          throw e;
        }
        throw (
          failure(e, 'tools/list', list.timeoutMs, list.setting, list.cancel) ??
          new ToolgaugeError('SERVER_CRASH', `MCP server '${name}' failed during tools/list: ${serverWords(e)}`, {
            server: name,
          })
        );
      }
      return tools;
    },
    async callTool(tool, args, timeoutMs, cancel) {
      try {
        const result = await bounded(timeoutMs, cancel, (o) =>
          client.callTool({ name: tool, arguments: args }, undefined, o),
        );
        const content = Array.isArray(result.content) ? result.content : [];
        const text = content
          .map((c: { type: string; text?: string }) => (c.type === 'text' ? (c.text ?? '') : `[${c.type} content]`))
          .join('\n');
        const structured = !text && result.structuredContent ? JSON.stringify(result.structuredContent) : '';
        return { text: text || structured, isError: result.isError === true };
      } catch (e) {
        const message = errorMessage(e);
        // Protocol-level errors for a call (e.g. invalid params from a strict server) are model-visible data.
        if (/MCP error -326(02|01)/.test(message) && !cancel?.signal.aborted) return { text: message, isError: true };
        throw (
          failure(e, tool, timeoutMs, undefined, cancel) ??
          new ToolgaugeError('SERVER_CRASH', `MCP server '${name}' failed during ${tool}: ${serverWords(e)}`, {
            server: name,
            tool,
          })
        );
      }
    },
    async readState(timeoutMs, cancel) {
      if (!client.getServerCapabilities()?.resources)
        return {
          error: `MCP server '${name}' publishes no state view (resource ${STATE_VIEW_URI}); read the state with a probe`,
        };
      let text: string | undefined;
      try {
        const read = await bounded(timeoutMs, cancel, (o) => client.readResource({ uri: STATE_VIEW_URI }, o));
        const first = read.contents[0];
        text = first && 'text' in first && typeof first.text === 'string' ? first.text : undefined;
      } catch (e) {
        // a server with resources but without this one answers with an error: the view is not there
        if (e instanceof McpError && e.code !== ErrorCode.RequestTimeout && !cancel?.signal.aborted)
          return { error: `MCP server '${name}' has no state view (${STATE_VIEW_URI}): ${errorMessage(e)}` };
        throw (
          failure(e, `resources/read ${STATE_VIEW_URI}`, timeoutMs, 'timeouts.toolMs', cancel) ??
          new ToolgaugeError('SERVER_CRASH', `MCP server '${name}' failed reading its state view: ${serverWords(e)}`, {
            server: name,
          })
        );
      }
      if (text === undefined) return { error: `MCP server '${name}' sent its state view without text` };
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: `MCP server '${name}' sent a state view that is not JSON` };
      }
    },
    async close() {
      healthy = false;
      // an HTTP session is ended on the server too (DELETE), not left to its idle timeout
      await http?.terminateSession().catch(() => {});
      await client.close().catch(() => {});
      // The session may have let go of a transport that closed itself: its process is still ended here.
      await stdio?.close();
      await server?.close().catch(() => {});
    },
  };
}

/**
 * Waits for `pending`, a request a server may be slow to answer while it starts (an `npx` or `uvx` server may be
 * downloaded first): past {@link SLOW_NOTE_MS}, or half the timeout if shorter, `bounds.notify` is told once, so a
 * long wait is never silent.
 */
async function announcingSlow<T>(pending: Promise<T>, name: string, what: string, bounds: RequestBounds): Promise<T> {
  const notify = bounds.notify;
  if (!notify) return pending;
  const afterMs = Math.min(SLOW_NOTE_MS, Math.floor(bounds.timeoutMs / 2));
  const timer = setTimeout(() => {
    const setting = bounds.setting ? ` (${bounds.setting})` : '';
    notify(
      `toolgauge: MCP server '${printable(name)}' has not answered ${what} after ${seconds(afterMs)}; waiting up to ${seconds(bounds.timeoutMs)}${setting}`,
    );
  }, afterMs);
  timer.unref();
  try {
    return await pending;
  } finally {
    clearTimeout(timer);
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
