import type { RenderedTool, ToolSearchSpec } from '../contracts/model.js';
import type { PreparedRenderer } from '../contracts/renderer.js';
import type { ToolDef } from '../contracts/tool.js';
import { Bm25Index, regexSearch, type SearchHit, safePattern } from './lexical-search.js';

/** What one search call gets back: the result fed to the model and the tools it loads. */
export interface SearchAnswer {
  text: string;
  isError: boolean;
  /** Catalog names of the tools found, best first. */
  found: string[];
  /** Native tools to offer from the next turn on (none for text protocols: the result text defines them). */
  tools: RenderedTool[];
}

/** The search indexes of a run, one per case catalog (cases that see the same tools share it). */
export class SearchIndexes {
  private readonly bm25 = new WeakMap<readonly ToolDef[], Bm25Index>();

  of(tools: readonly ToolDef[]): Bm25Index {
    let index = this.bm25.get(tools);
    if (!index) {
      index = new Bm25Index(tools);
      this.bm25.set(tools, index);
    }
    return index;
  }
}

/** The argument a search call carries its query in, per method. */
export function queryParameter(method: ToolSearchSpec['method']): 'query' | 'pattern' {
  return method === 'regex' ? 'pattern' : 'query';
}

/**
 * One case's tool search: answers calls to the request's search tool by a deterministic lexical search over the
 * tools the strategy presents (names, descriptions and parameters as shown), no network, and hands the renderer's
 * presentation of the tools found to the agent loop. Tools already offered are found again but offered once.
 */
export class ToolSearchRuntime {
  private readonly offered = new Set<string>();
  /** The catalog tools callable now (`server\u0000name`): the eager ones and every one a search found. */
  private readonly loaded = new Set<string>();
  /** The native tools a request offers now (one list until a search adds to it, so turns share it). */
  private tools: RenderedTool[] | undefined;

  constructor(
    readonly spec: ToolSearchSpec,
    private readonly catalog: readonly ToolDef[],
    private readonly prepared: PreparedRenderer,
    private readonly indexes: SearchIndexes,
    firstTools: RenderedTool[] | undefined,
  ) {
    this.tools = firstTools;
    for (const t of firstTools ?? []) this.offered.add(t.name);
    const eager = new Set(spec.eager);
    for (const t of catalog) if (eager.has(t.name)) this.loaded.add(keyOf(t.server, t.name));
  }

  /**
   * Whether a catalog tool may be called: eager, or found by a search. A deferred tool is callable only once a
   * search returned it, as with APIs that load deferred tools on demand (a text-protocol reply can name any tool, and
   * one named from a mention in another tool's description is refused until searched for).
   */
  isLoaded(server: string, tool: string): boolean {
    return this.loaded.has(keyOf(server, tool));
  }

  /**
   * The native tools to offer on the next request: the first request's, then every one a search of this case loaded,
   * whichever user message it answered (a tool found once stays loaded for the rest of a conversation, as with APIs
   * that keep loaded tool definitions in the context). Undefined for a text protocol.
   */
  get nativeTools(): RenderedTool[] | undefined {
    return this.tools;
  }

  handles(name: string): boolean {
    return name === this.spec.tool;
  }

  answer(args: unknown): SearchAnswer {
    const param = queryParameter(this.spec.method);
    const value = isObject(args) ? args[param] : undefined;
    if (typeof value !== 'string' || value.trim() === '') {
      return this.refuse(`${this.spec.tool} needs a "${param}" string argument.`);
    }
    let hits: SearchHit[];
    if (this.spec.method === 'regex') {
      const re = safePattern(value);
      if (typeof re === 'string') return this.refuse(`${this.spec.tool}: ${re}.`);
      hits = regexSearch(this.catalog, re, this.spec.k);
    } else {
      hits = this.indexes.of(this.catalog).search(value, this.spec.k);
    }
    const found = hits.map((h) => h.tool);
    if (found.length === 0) {
      return {
        text: `No tool matches ${JSON.stringify(value)}. Try other words.`,
        isError: false,
        found: [],
        tools: [],
      };
    }
    for (const t of found) this.loaded.add(keyOf(t.server, t.name));
    const shown = this.prepared.expand?.(found) ?? { text: found.map((t) => t.name).join('\n') };
    const tools = (shown.tools ?? []).filter((t) => !this.offered.has(t.name));
    for (const t of tools) this.offered.add(t.name);
    if (tools.length > 0) this.tools = [...(this.tools ?? []), ...tools];
    return { text: shown.text, isError: false, found: found.map((t) => t.name), tools };
  }

  private refuse(text: string): SearchAnswer {
    return { text, isError: true, found: [], tools: [] };
  }
}

function keyOf(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
