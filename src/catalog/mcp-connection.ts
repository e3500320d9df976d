import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ReadBuffer, STDIO_DEFAULT_MAX_BUFFER_SIZE, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import { builtinServers } from '../../mock-servers/mcp/index.js';
import type { ServerSpec } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { errorMessage, ToolgaugeError } from '../errors.js';

export interface ToolCallOutcome {
  text: string;
  isError: boolean;
}

/**
 * What cancels a request (the run interrupted, the case timed out). Its `signal` is read only when a request goes to
 * an out-of-process server: the case's CaseAbort creates its AbortSignal on first use, and most cases need none.
 */
export interface Cancellation {
  readonly signal: AbortSignal;
}

/** The bounds of a server's start and tool listing: a timeout, the setting it comes from, and a cancellation. */
export interface RequestBounds {
  timeoutMs: number;
  /** Where the timeout is configured (e.g. `timeouts.toolMs`), named in a timeout error. */
  setting?: string;
  cancel?: Cancellation;
}

/** The bounds used when a caller gives none: the default of `timeouts.toolMs`. */
export const DEFAULT_BOUNDS: RequestBounds = { timeoutMs: 30_000 };

/** Largest message (one JSON-RPC line) read from a stdio server: the SDK's own limit, 10 MiB. */
export const MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

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
  client.onclose = () => {
    healthy = false;
  };
  // In-process servers answer at once: they get the timeout but no signal (no AbortSignal made per case for them).
  const inProcess = 'builtin' in spec;
  const options = (timeout: number, cancel?: Cancellation) =>
    inProcess || !cancel ? { timeout } : { timeout, signal: cancel.signal };
  /** The typed error for a failed request; `what` is the request (initialize, tools/list, a tool's name). */
  const failure = (e: unknown, what: string, timeoutMs: number, setting: string | undefined, cancel?: Cancellation) => {
    healthy = false;
    // A cancelled request rejects with a "timeout" McpError wrapping the reason: the reason is the truth.
    if (!inProcess && cancel?.signal.aborted) return cancel.signal.reason as unknown;
    if (stdio?.overLimit) {
      // An infrastructure error (not the model's), named for what happened, with the limit in its message
      return new ToolgaugeError(
        'TOOL_RESULT_TOO_LARGE',
        `MCP server '${name}' sent a message over the ${MAX_MESSAGE_BYTES}-byte (10 MiB) stdio limit during ${what}: it was not read and the connection was closed (the server did not crash; it is restarted for the next case)`,
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
      await client.connect(clientSide, options(bounds.timeoutMs));
    } else if ('command' in spec) {
      const [command, ...args] = spec.command as [string, ...string[]];
      stdio = new ServerProcessTransport({
        command,
        args,
        // Only a handful of variables reach the server unless the suite passes env itself (as the SDK does).
        env: { ...getDefaultEnvironment(), ...(spec.env ?? {}) },
        cwd: spec.cwd ?? baseDir,
      });
      stdio.stderr.on('data', (chunk: Buffer) => {
        stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      await client.connect(stdio, options(bounds.timeoutMs, bounds.cancel));
    } else {
      const transport = new StreamableHTTPClientTransport(
        new URL(spec.url),
        spec.headers ? { requestInit: { headers: spec.headers } } : undefined,
      );
      await client.connect(transport, options(bounds.timeoutMs, bounds.cancel));
    }
  } catch (e) {
    await client.close().catch(() => {});
    await server?.close().catch(() => {});
    if (e instanceof ToolgaugeError) throw e;
    const known = failure(e, 'initialize', bounds.timeoutMs, bounds.setting, bounds.cancel);
    if (known) throw known;
    const tail = stderrTail.trim() ? ` — server stderr: ${stderrTail.trim().split('\n').slice(-3).join(' | ')}` : '';
    throw new ToolgaugeError('SERVER_START', `MCP server '${name}' failed to start: ${errorMessage(e)}${tail}`, {
      server: name,
    });
  }

  return {
    name,
    healthy: () => healthy,
    async listTools(list = bounds) {
      const tools: ToolDef[] = [];
      let cursor: string | undefined;
      try {
        do {
          const page = await client.listTools(cursor ? { cursor } : undefined, options(list.timeoutMs, list.cancel));
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
      } catch (e) {
        throw (
          failure(e, 'tools/list', list.timeoutMs, list.setting, list.cancel) ??
          new ToolgaugeError('SERVER_CRASH', `MCP server '${name}' failed during tools/list: ${errorMessage(e)}`, {
            server: name,
          })
        );
      }
      return tools;
    },
    async callTool(tool, args, timeoutMs, cancel) {
      try {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, options(timeoutMs, cancel));
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
          new ToolgaugeError('SERVER_CRASH', `MCP server '${name}' failed during ${tool}: ${message}`, {
            server: name,
            tool,
          })
        );
      }
    },
    async close() {
      healthy = false;
      await client.close().catch(() => {});
      // The session may have let go of a transport that closed itself: its process is still ended here.
      await stdio?.close();
      await server?.close().catch(() => {});
    },
  };
}

/** Process groups exist on POSIX: there a server and everything it spawned are ended together. */
const GROUPS = process.platform !== 'win32';
const GRACE_MS = 2000;

/** Every stdio server process started and not yet seen to exit; all are killed when this process exits. */
const liveServers = new Set<ChildProcess>();
let exitHook = false;

/** Signals a server's whole process group (its children too), or the process alone where there are no groups. */
function signalServer(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(GROUPS ? -child.pid : child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Kills (SIGKILL) every stdio server process still running, with its process group. Runs on this process's exit,
 * whatever the way out (a second Ctrl-C, an error, the end of a command): no server outlives the CLI.
 */
function killServerProcesses(): void {
  for (const child of liveServers) signalServer(child, 'SIGKILL');
  liveServers.clear();
}

/** Signals whose default action ends this process without an 'exit' event. */
const FATAL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Once a server runs: kill them all on exit, and on a fatal signal nobody else handles. A server leads its own process
 * group, so a terminal's Ctrl-C no longer reaches it: a CLI that dies of the signal (before a command installs its
 * interrupt handling) must take its servers along. When another handler exists (a run stopping gracefully), it owns
 * the signal and the exit hook does the rest.
 */
function installExitHooks(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', killServerProcesses);
  for (const signal of FATAL_SIGNALS) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      killServerProcesses();
      process.off(signal, onSignal);
      process.kill(process.pid, signal); // the default action, as if nobody had listened
    };
    process.on(signal, onSignal);
  }
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * The client side of a stdio server: like the SDK's StdioClientTransport, but the server leads its own process group
 * (so a server that spawns children is ended with them, and a terminal's Ctrl-C reaches the CLI alone), every server is
 * killed when this process exits, and a message over the read limit is known as such (`overLimit`) instead of
 * surfacing as a bare "Connection closed".
 */
class ServerProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, available before start so no early line is lost. */
  readonly stderr = new PassThrough();
  /** The server sent a message over MAX_MESSAGE_BYTES: it was dropped and the connection closed. */
  overLimit = false;
  private child: ChildProcess | undefined;
  private closing: Promise<void> | undefined;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private notified = false;

  constructor(private readonly params: { command: string; args: string[]; env: Record<string, string>; cwd: string }) {}

  start(): Promise<void> {
    if (this.child) throw new Error('server process already started');
    return new Promise((resolve, reject) => {
      const { command, args, env, cwd } = this.params;
      const child = spawn(command, args, {
        env,
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: GROUPS,
        windowsHide: true,
      });
      this.child = child;
      child.once('error', (e) => {
        reject(e);
        this.onerror?.(e);
      });
      child.once('spawn', () => {
        liveServers.add(child);
        installExitHooks();
        resolve();
      });
      // The leader is gone: whatever it left running in its group goes too.
      child.once('exit', () => {
        liveServers.delete(child);
        signalServer(child, 'SIGKILL');
      });
      child.once('close', () => {
        this.child = undefined;
        this.closed();
      });
      child.stdin?.on('error', (e) => this.onerror?.(e));
      child.stdout?.on('error', (e) => this.onerror?.(e));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.pipe(this.stderr);
    });
  }

  private read(chunk: Buffer): void {
    if (this.overLimit) return; // the rest of the dropped message, until the process is gone
    try {
      this.buffer.append(chunk);
    } catch (e) {
      // The SDK's buffer refuses the message and forgets what it held; the stream is now mid-message, and which
      // request the message answered is unknowable: the session cannot go on.
      this.overLimit = true;
      this.onerror?.(e as Error);
      // Pending requests fail now, not when the process is gone (a server may take the whole grace to exit).
      this.closed();
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (e) {
        this.onerror?.(e as Error); // a line that is not JSON-RPC: skipped (the buffer has moved past it)
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  /** Tells the session once that the connection is over. */
  private closed(): void {
    if (this.notified) return;
    this.notified = true;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed || this.closing) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends stdin, then SIGTERM, then SIGKILL to the group, each after a grace period; resolves once the server exited. */
  close(): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    this.closing ??= (async () => {
      const gone = new Promise<void>((resolve) => {
        if (exited(child)) resolve();
        else child.once('exit', () => resolve());
      });
      const within = (ms: number) =>
        Promise.race([gone.then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // the pipe is already broken
      }
      if (await within(GRACE_MS)) return;
      signalServer(child, 'SIGTERM');
      if (await within(GRACE_MS)) return;
      signalServer(child, 'SIGKILL');
      await within(GRACE_MS);
    })();
    return this.closing.finally(() => this.buffer.clear());
  }
}
