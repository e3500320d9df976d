import { dirname } from 'node:path';
import type { LoadedSuite } from '../config/load-suite.js';
import type { ServerSpec, SuiteCase } from '../contracts/suite.js';
import type { Catalog, ToolDef } from '../contracts/tool.js';
import { hashOf } from '../util/canonical-json.js';
import type { McpConnection, ToolCallOutcome } from './mcp-connection.js';

/** The MCP SDK and the bundled servers load on first use: suites with inline tools only never need them. */
const connectServer = async (...args: Parameters<typeof import('./mcp-connection.js').connectServer>) =>
  (await import('./mcp-connection.js')).connectServer(...args);

export const INLINE_SERVER = 'inline';

/** The tools of one case: its catalog and a way to call them. Built-in servers are fresh per case. */
export interface CaseSession {
  catalog: Catalog;
  call(server: string, tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<ToolCallOutcome>;
  release(): Promise<void>;
}

const perCase = (spec: ServerSpec) => 'builtin' in spec || ('command' in spec && spec.isolate === true);

/**
 * Owns every MCP connection of a run. Built-in (and `isolate`d) servers get a new instance per case, so
 * state never leaks between cases; user servers are started once per run and shared. A connection that
 * crashed or hung is replaced before the next case. `closeAll` leaves no child process behind.
 */
export class ServerPool {
  private readonly shared = new Map<string, Promise<McpConnection>>();
  private readonly open = new Set<McpConnection>();
  private readonly catalogs = new Map<string, Promise<Catalog>>();
  private closed = false;

  async openCase(loaded: LoadedSuite, testCase: SuiteCase): Promise<CaseSession> {
    const { suite } = loaded;
    const baseDir = dirname(loaded.file);
    const conns = new Map<string, McpConnection>();
    const owned: McpConnection[] = [];
    try {
      for (const [name, spec] of Object.entries(suite.servers ?? {})) {
        if (perCase(spec)) {
          const conn = await this.track(connectServer(name, spec, baseDir));
          owned.push(conn);
          conns.set(name, conn);
        } else {
          conns.set(name, await this.sharedConnection(`${loaded.file}#${name}`, name, spec, baseDir));
        }
      }
      const catalog = testCase.functions
        ? await caseCatalog(testCase.functions, conns)
        : await this.catalogFor(loaded, conns);
      return {
        catalog,
        call: async (server, tool, args, timeoutMs) => {
          if (server === INLINE_SERVER) return inlineResult(testCase, tool);
          const conn = conns.get(server);
          if (!conn) return { text: `Unknown server '${server}' for tool ${tool}`, isError: true };
          return conn.callTool(tool, args, timeoutMs);
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
  private catalogFor(loaded: LoadedSuite, conns: Map<string, McpConnection>): Promise<Catalog> {
    let catalog = this.catalogs.get(loaded.file);
    if (!catalog) {
      catalog = (async () => {
        const tools: ToolDef[] = [];
        for (const conn of conns.values()) tools.push(...(await conn.listTools()));
        for (const t of loaded.suite.tools ?? []) tools.push({ ...t, server: INLINE_SERVER });
        const source: Catalog['source'] = conns.size === 0 ? 'inline' : 'live';
        return { tools, source, hash: hashOf(tools) };
      })();
      catalog.catch(() => this.catalogs.delete(loaded.file));
      this.catalogs.set(loaded.file, catalog);
    }
    return catalog;
  }

  private async sharedConnection(key: string, name: string, spec: ServerSpec, baseDir: string): Promise<McpConnection> {
    const existing = this.shared.get(key);
    if (existing) {
      const conn = await existing.catch(() => undefined);
      if (conn?.healthy()) return conn;
      if (conn) await this.release(conn);
      this.shared.delete(key);
    }
    const created = this.track(connectServer(name, spec, baseDir));
    this.shared.set(key, created);
    created.catch(() => this.shared.delete(key));
    return created;
  }

  private async track(pending: Promise<McpConnection>): Promise<McpConnection> {
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
    const all = [...this.open];
    this.open.clear();
    this.shared.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}

/** A case with its own `functions` (imported BFCL questions): not cached, each case lists different tools. */
async function caseCatalog(functions: NonNullable<SuiteCase['functions']>, conns: Map<string, McpConnection>) {
  const tools: ToolDef[] = [];
  for (const conn of conns.values()) tools.push(...(await conn.listTools()));
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
