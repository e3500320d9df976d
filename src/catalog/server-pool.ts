import { dirname } from 'node:path';
import type { LoadedSuite } from '../config/load-suite.js';
import { INLINE_SERVER } from '../config/suite-schema.js';
import type { ServerSpec, SuiteCase } from '../contracts/suite.js';
import type { Catalog, ToolDef } from '../contracts/tool.js';
import { isToolgaugeError, ToolgaugeError } from '../errors.js';
import { hashOf } from '../util/canonical-json.js';
import { printable } from '../util/printable.js';
import type { Cancellation, McpConnection, RequestBounds, ToolCallOutcome } from './mcp-connection.js';

/** The MCP SDK and the bundled servers load on first use: suites with inline tools only never need them. */
const connectServer = async (...args: Parameters<typeof import('./mcp-connection.js').connectServer>) =>
  (await import('./mcp-connection.js')).connectServer(...args);

/** The tools of one case: its catalog and a way to call them. Built-in servers are fresh per case. */
export interface CaseSession {
  catalog: Catalog;
  /** Calls a tool within `timeoutMs`; `cancel` (the case's) ends the call at once when it fires. */
  call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    cancel?: Cancellation,
  ): Promise<ToolCallOutcome>;
  /** The state view of one of the case's servers (by its name in the suite): see McpConnection.readState. */
  readState(server: string, timeoutMs: number, cancel?: Cancellation): Promise<{ value: unknown } | { error: string }>;
  release(): Promise<void>;
}

/**
 * What the pools of one command share about server starts (the check before a run and the run itself): the servers
 * that did not start in time, and where to say that a start is slow or has been given up.
 */
export interface PoolOptions {
  /** Servers (by suite file and name) that did not answer initialize or tools/list in time, with their error. */
  stalled?: Map<string, ToolgaugeError>;
  /** One line for the user (stderr): a start still waited for after a few seconds, and a start given up. */
  notify?: (line: string) => void;
}

const perCase = (spec: ServerSpec) =>
  'builtin' in spec || 'url' in spec || ('command' in spec && spec.isolate === true);

/**
 * Owns every MCP connection of a run. Built-in (and `isolate`d) servers get a new instance per case, and HTTP servers
 * a new MCP session per case (a session is a request away, and a server that keeps state per session then starts each
 * case fresh, as a stdio process does), so state never leaks between cases; user stdio servers are started once per
 * run and shared. A connection that
 * crashed or hung is replaced before the next case, but a server that did not answer initialize or tools/list
 * within the timeout is not started again in this run — nor by another pool given the same `stalled` map (the run
 * after its check): every later case fails at once with its SERVER_TIMEOUT (waiting out the timeout case after case
 * would hold the run for cases × timeout). `closeAll` leaves no child process behind.
 */
export class ServerPool {
  private readonly shared = new Map<string, Promise<McpConnection>>();
  private readonly open = new Set<McpConnection>();
  private readonly catalogs = new Map<string, Promise<Catalog>>();
  private readonly stalled: Map<string, ToolgaugeError>;
  private readonly notify: ((line: string) => void) | undefined;
  /** Cancels the starts and listings shared by several cases (no one case's cancellation may end them). */
  private readonly closing = new AbortController();
  private closed = false;
  /** Starts under way (shared or per case), settled or not. */
  private readonly starting = new Set<Promise<void>>();

  constructor(options: PoolOptions = {}) {
    this.stalled = options.stalled ?? new Map();
    this.notify = options.notify;
  }

  /**
   * Connects the case's servers and lists its tools within `bounds` (its timeout; its cancellation ends the wait at
   * once). Without bounds, the default of `timeouts.serverStartMs`.
   */
  async openCase(loaded: LoadedSuite, testCase: SuiteCase, caseBounds: RequestBounds = DEFAULTS): Promise<CaseSession> {
    const { suite } = loaded;
    const bounds: RequestBounds = this.notify ? { ...caseBounds, notify: this.notify } : caseBounds;
    const baseDir = dirname(loaded.file);
    const conns = new Map<string, McpConnection>();
    const keys = new Map<McpConnection, string>();
    const owned: McpConnection[] = [];
    const sharedBounds: RequestBounds = { ...bounds, cancel: this.closing };
    // Only a case that may wait on a process reads its cancellation's signal: in-process servers answer at once.
    const waitCancel = Object.values(suite.servers ?? {}).every((s) => 'builtin' in s) ? undefined : bounds.cancel;
    try {
      for (const [name, spec] of Object.entries(suite.servers ?? {})) {
        const key = `${loaded.file}#${name}`;
        const stalled = this.stalled.get(key);
        if (stalled) throw stalled;
        let conn: McpConnection;
        if (perCase(spec)) {
          conn = await this.noteStall(key, this.track(connectServer(name, spec, baseDir, bounds)));
          owned.push(conn);
        } else {
          conn = await untilCancelled(
            this.noteStall(key, this.sharedConnection(key, name, spec, baseDir, sharedBounds)),
            bounds.cancel,
          );
        }
        conns.set(name, conn);
        keys.set(conn, key);
      }
      const list = (conn: McpConnection, listBounds: RequestBounds) =>
        this.noteStall(keys.get(conn) ?? conn.name, conn.listTools(listBounds));
      const catalog = testCase.functions
        ? await caseCatalog(testCase.functions, conns, (conn) => list(conn, bounds))
        : await untilCancelled(
            this.catalogFor(loaded, conns, (conn) => list(conn, sharedBounds)),
            waitCancel,
          );
      return {
        catalog,
        call: async (server, tool, args, timeoutMs, cancel) => {
          if (server === INLINE_SERVER) return inlineResult(testCase, tool);
          const conn = conns.get(server);
          if (!conn) return { text: `Unknown server '${server}' for tool ${tool}`, isError: true };
          return conn.callTool(tool, args, timeoutMs, cancel);
        },
        readState: async (server, timeoutMs, cancel) => {
          const conn = conns.get(server);
          if (!conn) return { error: `the suite has no server '${server}'` };
          return conn.readState(timeoutMs, cancel);
        },
        release: async () => {
          await Promise.all(owned.map((c) => this.release(c)));
        },
      };
    } catch (e) {
      await Promise.all(owned.map((c) => this.release(c)));
      throw e;
    }
  }

  /** The suite's catalog is listed once per run (tools are the same for every case; state is not). */
  private catalogFor(loaded: LoadedSuite, conns: Map<string, McpConnection>, list: Lister): Promise<Catalog> {
    let catalog = this.catalogs.get(loaded.file);
    if (!catalog) {
      catalog = (async () => {
        const tools: ToolDef[] = [];
        for (const conn of conns.values()) tools.push(...(await list(conn)));
        for (const t of loaded.suite.tools ?? []) tools.push({ ...t, server: INLINE_SERVER });
        const source: Catalog['source'] = conns.size === 0 ? 'inline' : 'live';
        return { tools, source, hash: hashOf(tools) };
      })();
      catalog.catch(() => this.catalogs.delete(loaded.file));
      this.catalogs.set(loaded.file, catalog);
    }
    return catalog;
  }

  /** A server that timed out starting or listing is remembered, so no later case waits for it again. */
  private async noteStall<T>(key: string, pending: Promise<T>): Promise<T> {
    try {
      return await pending;
    } catch (e) {
      if (isToolgaugeError(e) && e.code === 'SERVER_TIMEOUT' && !this.stalled.has(key)) {
        const given = new ToolgaugeError('SERVER_TIMEOUT', `${e.message}; not started again in this run`, e.details);
        this.stalled.set(key, given);
        this.notify?.(
          `toolgauge: ${printable(given.message)}: the cases that need it are infrastructure errors (a server that only starts slowly, e.g. downloaded by npx or uvx, needs a longer timeout)`,
        );
      }
      throw e;
    }
  }

  private async sharedConnection(
    key: string,
    name: string,
    spec: ServerSpec,
    baseDir: string,
    bounds: RequestBounds,
  ): Promise<McpConnection> {
    const existing = this.shared.get(key);
    if (existing) {
      const conn = await existing.catch(() => undefined);
      if (conn?.healthy()) return conn;
      if (conn) await this.release(conn);
      this.shared.delete(key);
    }
    if (this.closed) throw new Error('server pool is closed');
    const created = this.track(connectServer(name, spec, baseDir, bounds));
    this.shared.set(key, created);
    created.catch(() => this.shared.delete(key));
    return created;
  }

  private async track(pending: Promise<McpConnection>): Promise<McpConnection> {
    // A start still under way when the pool closes is waited for by closeAll: its process is ended before it returns.
    const settled = pending.then(
      () => {},
      () => {},
    );
    this.starting.add(settled);
    void settled.finally(() => this.starting.delete(settled));
    const conn = await pending;
    if (this.closed) {
      await conn.close();
      throw new Error('server pool is closed');
    }
    this.open.add(conn);
    return conn;
  }

  private async release(conn: McpConnection): Promise<void> {
    this.open.delete(conn);
    await conn.close();
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    this.closing.abort(new Error('server pool is closed'));
    // Shared starts end now (their cancellation is the pool's); a start that succeeds anyway closes itself in track.
    while (this.starting.size > 0) await Promise.all(this.starting);
    const all = [...this.open];
    this.open.clear();
    this.shared.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}

type Lister = (conn: McpConnection) => Promise<ToolDef[]>;

/** The default of `timeouts.serverStartMs`, for callers outside a run. */
const DEFAULTS: RequestBounds = { timeoutMs: 30_000 };

/**
 * Waits for `pending` (shared with other cases), or fails with the case's own cancellation as soon as it fires. The
 * cancellation's signal is read only here, for a case that has a shared server (see Cancellation).
 */
function untilCancelled<T>(pending: Promise<T>, cancel: Cancellation | undefined): Promise<T> {
  if (!cancel) return pending;
  const signal = cancel.signal;
  if (signal.aborted) {
    // The shared start or listing goes on without this case, and may fail later (when the pool closes, say): its
    // rejection is the pool's to deal with, never an unhandled one.
    pending.catch(() => {});
    return Promise.reject(signal.reason);
  }
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([pending, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** A case with its own `functions` (imported BFCL questions): not cached, each case lists different tools. */
async function caseCatalog(
  functions: NonNullable<SuiteCase['functions']>,
  conns: Map<string, McpConnection>,
  list: Lister,
) {
  const tools: ToolDef[] = [];
  for (const conn of conns.values()) tools.push(...(await list(conn)));
  for (const t of functions) tools.push({ ...t, server: INLINE_SERVER });
  const source: Catalog['source'] = conns.size === 0 ? 'inline' : 'live';
  return { tools, source, hash: hashOf(tools) } satisfies Catalog;
}

function inlineResult(testCase: SuiteCase, tool: string): ToolCallOutcome {
  const canned = testCase.results?.[tool];
  if (canned === undefined) {
    return { text: `Tool ${tool} has no executor in this suite (no canned result for this case).`, isError: true };
  }
  return { text: typeof canned === 'string' ? canned : JSON.stringify(canned), isError: false };
}
