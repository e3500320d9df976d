import { ServerPool } from '../catalog/server-pool.js';
import type { LoadedSuite } from '../config/load-suite.js';
import { firstCase } from '../config/suite-cases.js';
import type { ParseContext } from '../contracts/parse.js';
import type { SuiteCase } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { hashOf } from '../util/canonical-json.js';
import { filterTools } from '../util/tool-filter.js';

/** A case's offered tools, their hash, and the parse context naming them (one object per case, not per line). */
export interface CaseToolList {
  list: ToolDef[];
  hash: string;
  context: ParseContext;
}

/**
 * The tools each case was offered, for parsing, name resolution, schema checks and hallucination detection: the
 * case's own `functions` (imported BFCL questions) or the suite's catalog (servers are listed once, in-process for
 * built-ins), narrowed by the suite's and the case's tool filters. Cached per case.
 */
export class CaseTools {
  private readonly cache = new Map<string, CaseToolList>();
  private pool: ServerPool | undefined;
  private catalog: Promise<ToolDef[]> | undefined;

  constructor(private readonly loaded: LoadedSuite) {}

  /** The case's tools when already known (no promise: most lines hit this). */
  cached(c: SuiteCase): CaseToolList | undefined {
    return this.cache.get(c.id);
  }

  async of(c: SuiteCase): Promise<CaseToolList> {
    const hit = this.cache.get(c.id);
    if (hit) return hit;
    const hasServers = Object.keys(this.loaded.suite.servers ?? {}).length > 0;
    const base = hasServers ? await this.serverTools() : [];
    const own = (c.functions ?? this.loaded.suite.tools ?? []).map((t) => ({ ...t, server: 'inline' }));
    const list = filterTools([...base, ...own], this.loaded.suite.toolFilter, c.tools);
    const entry = { list, hash: hashOf(list), context: { tools: list } };
    this.cache.set(c.id, entry);
    return entry;
  }

  private serverTools(): Promise<ToolDef[]> {
    if (!this.catalog) {
      this.pool = new ServerPool();
      const pool = this.pool;
      const first = firstCase(this.loaded.cases) as SuiteCase;
      const probe = { ...first, functions: undefined };
      this.catalog = pool
        .openCase({ ...this.loaded, suite: { ...this.loaded.suite, tools: [] } }, probe)
        .then(async (session) => {
          await session.release();
          return session.catalog.tools;
        });
    }
    return this.catalog;
  }

  async close(): Promise<void> {
    await this.pool?.closeAll();
  }
}
