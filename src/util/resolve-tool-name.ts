import {
  fitLength,
  hashedName,
  NAME_LIMITS,
  nameKey,
  providerSafeNames,
  safeCharacters,
  sharedNames,
  type ToolKey,
  textName,
} from './provider-safe-name.js';

/** A tool as name resolution needs it: the name it was offered under, and its server when known. */
export interface NamedTool {
  name: string;
  server?: string;
}

/**
 * How a called name maps to an offered tool:
 * - `exact`: an offered tool has that name;
 * - `qualified`: `server__tool` (or `server/tool`, `server.tool`) naming an offered tool of that server;
 * - `provider-safe`: the provider-safe form of exactly one offered tool (`math_factorial` for `math.factorial`);
 * - `ambiguous`: the provider-safe form of several offered tools (`candidates`); stays a hallucination;
 * - `unknown`: no offered tool.
 */
export type NameResolution =
  | { how: 'exact' | 'qualified' | 'provider-safe'; tool: string; server?: string; called: string }
  | { how: 'ambiguous'; candidates: string[]; called: string }
  | { how: 'unknown'; called: string };

/** The prefix MCP clients put before `server__tool` in the names they show a model. */
const MCP_PREFIX = 'mcp__';

/** How a model may join a server's name to one of its tools' names. */
const QUALIFIERS = ['__', '/', '.'] as const;

/**
 * The offered tool a called name stands for, decided in this order (the first step that finds a tool decides):
 * 1. `exact`: an offered tool has the name (with several servers publishing it, the first offered);
 * 2. `qualified`: `server__tool`, `server/tool` or `server.tool`, the tool's own name after its server's;
 * 3. `provider-safe`: the name a native tool API had to be sent instead, the mapping the native renderer applies
 *    (src/catalog/provider-safe-name.ts): characters outside `[a-zA-Z0-9_-]` turned into `_`, `server__tool` for a
 *    name two servers share, a name past the length limit cut and ended in `_` + the 8-hex hash of `server/tool`
 *    (the hash needs the tool's server), a clash resolved the way the renderer resolves it. A recorded reply does not
 *    say which API produced it, so both limits count: 64 (OpenAI, Ollama, most servers) and 128 (Anthropic);
 * 4. `provider-safe` after a server qualifier: `fs__list_dir_v2` for `list.dir/v2` of server `fs`.
 * A name written the way MCP clients such as Claude Code show tools, `mcp__server__tool`, resolves as the name after
 * `mcp__` does (an exact tool name there counts as qualified).
 * A step that finds several tools (by name: one name several servers publish is one tool here, as in step 1) makes
 * the name `ambiguous`, which stays a hallucination; `unknown` when no step finds one.
 *
 * Names are case-sensitive: `Math_Factorial` does not resolve to `math.factorial`, because every native API and MCP
 * server matches tool names exactly, so an application could not have produced it from the offered name.
 */
export function resolveToolName(called: string, offered: readonly NamedTool[]): NameResolution {
  const index = indexOf(offered);
  const exact = index.byName.get(called);
  if (exact) return resolved('exact', exact, called);
  // MCP clients such as Claude Code show a server's tool to the model as `mcp__server__tool`
  if (called.startsWith(MCP_PREFIX)) {
    const inner = resolveToolName(called.slice(MCP_PREFIX.length), offered);
    if (inner.how === 'exact') return { ...inner, how: 'qualified', called };
    if (inner.how !== 'unknown') return { ...inner, called };
  }

  const qualified: NamedTool[] = [];
  const rests: Array<{ rest: string; tools: readonly NamedTool[] }> = [];
  for (const [server, tools] of serversOf(index, offered)) {
    if (!called.startsWith(server)) continue;
    for (const sep of QUALIFIERS) {
      const rest = called.slice(server.length + sep.length);
      if (rest === '' || !called.startsWith(sep, server.length)) continue;
      const hit = tools.find((t) => t.name === rest);
      if (hit) addTool(qualified, hit);
      else rests.push({ rest, tools });
    }
  }
  if (qualified.length > 0) return decide('qualified', qualified, called);

  const safe = formsOf(index, offered).get(called);
  if (safe) return decide('provider-safe', safe, called);

  const inServer: NamedTool[] = [];
  for (const { rest, tools } of rests)
    for (const t of formsOf(indexOf(tools), tools).get(rest) ?? []) addTool(inServer, t);
  if (inServer.length > 0) return decide('provider-safe', inServer, called);
  return { how: 'unknown', called };
}

function resolved(how: 'exact' | 'qualified' | 'provider-safe', tool: NamedTool, called: string): NameResolution {
  return { how, tool: tool.name, ...(tool.server ? { server: tool.server } : {}), called };
}

function decide(how: 'qualified' | 'provider-safe', tools: NamedTool[], called: string): NameResolution {
  if (tools.length === 1) return resolved(how, tools[0] as NamedTool, called);
  return { how: 'ambiguous', candidates: tools.map((t) => t.name), called };
}

/** Adds `tool` unless a tool of the same name is there already (first offered wins, as for exact names). */
function addTool(into: NamedTool[], tool: NamedTool): void {
  if (!into.some((t) => t.name === tool.name)) into.push(tool);
}

interface NameIndex {
  length: number;
  byName: Map<string, NamedTool>;
  /** Built on the first name that is not exact: most calls are. */
  forms?: Map<string, NamedTool[]>;
  servers?: Map<string, readonly NamedTool[]>;
}

/** Per offered list, built once: offline grading resolves every call of a case against the case's one list. */
const indexes = new WeakMap<readonly NamedTool[], NameIndex>();

function indexOf(offered: readonly NamedTool[]): NameIndex {
  const hit = indexes.get(offered);
  if (hit && hit.length === offered.length) return hit;
  const byName = new Map<string, NamedTool>();
  for (const t of offered) if (!byName.has(t.name)) byName.set(t.name, t);
  const index: NameIndex = { length: offered.length, byName };
  indexes.set(offered, index);
  return index;
}

/** Each server's offered tools (one stable list per server, so the sub-lists' indexes are cached too). */
function serversOf(index: NameIndex, offered: readonly NamedTool[]): Map<string, readonly NamedTool[]> {
  if (index.servers) return index.servers;
  const servers = new Map<string, NamedTool[]>();
  for (const t of offered) {
    if (!t.server) continue;
    const list = servers.get(t.server);
    if (list) list.push(t);
    else servers.set(t.server, [t]);
  }
  index.servers = servers;
  return servers;
}

/** Every provider-safe form of every offered tool, at both length limits, with the tools each form stands for. */
function formsOf(index: NameIndex, offered: readonly NamedTool[]): Map<string, NamedTool[]> {
  if (index.forms) return index.forms;
  const forms = new Map<string, NamedTool[]>();
  const add = (form: string, tool: NamedTool) => {
    const list = forms.get(form);
    if (list) addTool(list, tool);
    else forms.set(form, [tool]);
  };
  const keyed = offered.filter((t): t is ToolKey => t.server !== undefined && t.server !== '');
  const shared = sharedNames(keyed);
  for (const t of offered) {
    const bare = safeCharacters(t.name);
    for (const max of NAME_LIMITS) {
      if (!t.server) {
        // no server, no hash: only a name that fits has a form
        if (bare.length <= max) add(bare, t);
        continue;
      }
      const key = nameKey(t as ToolKey);
      const text = safeCharacters(textName(t as ToolKey, shared));
      add(fitLength(bare, key, max), t);
      add(fitLength(text, key, max), t);
      add(hashedName(text, key, max), t);
    }
  }
  // the renderer's own assignment, clashes resolved: a numbered name exists only there
  for (const max of NAME_LIMITS) for (const { name, tool } of providerSafeNames(keyed, max)) add(name, tool);
  index.forms = forms;
  return forms;
}
