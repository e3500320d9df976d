import { z } from 'zod';
import { INLINE_SERVER, type PoolOptions, ServerPool } from '../catalog/server-pool.js';
import { filterTools } from '../catalog/tool-filter.js';
import type { ExpectedCall, SuiteCase } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import type { LoadedSuite, SuiteHead } from './load-suite.js';
import { loadYamlFile, problemsError, type SemanticIssue } from './load-yaml.js';
import { findCase, firstCase } from './suite-cases.js';

/** A suite's tools as the check needs them: those of its servers (listed) and its inline ones. */
export interface SuiteTools {
  /** The tools the suite's servers list (none for a suite of inline tools only). */
  serverTools: readonly ToolDef[];
}

/** Few names are enough to spot the one meant; a catalog of hundreds would drown the message. */
const MAX_NAMES_SHOWN = 12;

function listNames(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMES_SHOWN).join(', ');
  return names.length > MAX_NAMES_SHOWN ? `${shown}, … (${names.length} in all)` : shown || '(none)';
}

/** Edit distance (Levenshtein), for suggesting the name a typo meant. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** ` (did you mean 'x'?)` for the nearest name within a few edits, else nothing. */
function suggestion(name: string, candidates: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = distance(name, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best === undefined ? '' : ` (did you mean '${best}'?)`;
}

/**
 * True when the suite's tools are all known without starting a server: no `servers:`, only inline `tools:` or
 * per-case `functions:`. Then the check runs at load; otherwise once the servers' catalogs are listed.
 */
export function toolsKnownAtLoad(suite: SuiteHead): boolean {
  return Object.keys(suite.servers ?? {}).length === 0;
}

/** The tools one case offers the model before renderer-specific changes: servers' and inline, then its filters. */
function offeredTools(
  suite: SuiteHead,
  testCase: SuiteCase,
  tools: SuiteTools,
): { all: ToolDef[]; offered: ToolDef[] } {
  const inline = (testCase.functions ?? suite.tools ?? []).map((t) => ({ ...t, server: INLINE_SERVER }));
  const all = [...tools.serverTools, ...inline];
  return { all, offered: filterTools(all, suite.toolFilter, testCase.tools) };
}

/**
 * The parameter names a tool's input schema declares, or undefined when it declares none it would hold to: a schema
 * without `properties`, or one that accepts other names (`additionalProperties` other than `false`, or
 * `patternProperties`). JSON Schema accepts undeclared properties unless told not to, but a tool schema that lists its
 * properties means them: an expected argument outside the list is a typo (or a stale suite) far more often than a
 * parameter the tool takes unlisted, so only an explicit `additionalProperties: true` (or a schema) opens the list.
 */
export function declaredParameters(inputSchema: Readonly<Record<string, unknown>>): string[] | undefined {
  const properties = inputSchema.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return undefined;
  const additional = inputSchema.additionalProperties;
  if ((additional !== undefined && additional !== false) || inputSchema.patternProperties !== undefined) {
    return undefined;
  }
  return Object.keys(properties);
}

/** Every parameter name an expected call mentions, with where it is written. */
function mentionedParameters(call: ExpectedCall): Array<{ name: string; path: PropertyKey[] }> {
  const out: Array<{ name: string; path: PropertyKey[] }> = [];
  for (const name of Object.keys(call.args ?? {})) out.push({ name, path: ['args', name] });
  for (const [k, name] of (call.free ?? []).entries()) out.push({ name, path: ['free', k] });
  for (const name of Object.keys(call.example ?? {})) out.push({ name, path: ['example', name] });
  return out;
}

/**
 * Checks every expected call of a suite against the tools its cases offer: the tool must be one of them (after the
 * suite's and the case's tool filters) and each parameter named in `args`, `free` or `example` one the tool's schema
 * declares (see {@link declaredParameters}). A mismatch could only ever read as the model's failure; it is the
 * suite's. Returns every problem, each with its YAML path and the fix.
 */
export function checkExpectations(
  suite: SuiteHead,
  cases: Iterable<SuiteCase> | { entries(): Iterable<[number, SuiteCase]> },
  tools: SuiteTools,
  firstIndex = 0,
): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  let suiteWide: ReturnType<typeof offeredTools> | undefined;
  for (const [at0, testCase] of indexed(cases)) {
    const i = at0 + firstIndex;
    const calls = testCase.expect.calls ?? [];
    if (calls.length === 0) continue;
    // A case with neither its own functions nor its own filter offers the suite's tools, as every such case does.
    const own = testCase.functions !== undefined || testCase.tools !== undefined;
    if (!own) suiteWide ??= offeredTools(suite, testCase, tools);
    const { all, offered } = own || !suiteWide ? offeredTools(suite, testCase, tools) : suiteWide;
    for (const [j, call] of calls.entries()) {
      const at: PropertyKey[] = ['cases', i, 'expect', 'calls', j];
      const tool = offered.find((t) => t.name === call.tool);
      if (!tool) {
        const filtered = all.some((t) => t.name === call.tool);
        issues.push({
          path: [...at, 'tool'],
          message: filtered
            ? `tool '${call.tool}' is filtered out of this case's tools (by the suite's toolFilter or the case's tools:); ` +
              'change the filter or the expected tool'
            : `no tool named '${call.tool}' is offered to this case${suggestion(
                call.tool,
                offered.map((t) => t.name),
              )}; ` +
              `offered: ${listNames(offered.map((t) => t.name))}; ` +
              'fix the name, or add the tool to the suite',
        });
        continue;
      }
      const declared = declaredParameters(tool.inputSchema);
      if (!declared) continue;
      for (const { name, path } of mentionedParameters(call)) {
        if (declared.includes(name)) continue;
        issues.push({
          path: [...at, ...path],
          message:
            `'${name}' is not a parameter of ${call.tool}${suggestion(name, declared)} (its parameters: ${listNames(declared)}); ` +
            'fix the name, or remove it from the expected call',
        });
      }
    }
  }
  return issues;
}

/** Cases with their indices: an array's or a suite's own (a filtered suite keeps each case's index in its file). */
function indexed(
  cases: Iterable<SuiteCase> | { entries(): Iterable<[number, SuiteCase]> },
): Iterable<[number, SuiteCase]> {
  return 'entries' in cases ? cases.entries() : Array.from(cases).entries();
}

/** How the check before a run waits for servers. */
export interface ListingBounds {
  /**
   * How long one suite's servers may take to start and list their tools (the run's `timeouts.serverStartMs`). A
   * server that fails to start or to list, or is slower, goes unchecked: the run meets it again and records that as
   * its error.
   */
  waitMs: number;
  /** The run's interruption: the check stops waiting and checks nothing more. */
  signal?: AbortSignal;
  /** Shared with the run's pool: a server that timed out here is not started again by the run. */
  pool?: PoolOptions;
  /**
   * Told each suite's tools once known (listed, or inline), for checks of the run's own that need them (catalog
   * variants' distractor counts and description overrides); it throws to stop the run.
   */
  onListed?: (loaded: LoadedSuite, tools: readonly ToolDef[]) => void;
}

/** The tools a suite's servers list, or undefined when they could not be listed in time. */
async function listServerTools(
  pool: ServerPool,
  loaded: LoadedSuite,
  bounds: ListingBounds,
): Promise<ToolDef[] | undefined> {
  // A case without its own functions gets the suite's catalog: the servers' tools, then the inline ones.
  const testCase = findCase(loaded.cases, (c) => !c.functions) ?? firstCase(loaded.cases);
  if (!testCase) return undefined;
  try {
    const session = await pool.openCase(loaded, testCase, {
      timeoutMs: bounds.waitMs,
      setting: 'timeouts.serverStartMs',
      ...(bounds.signal ? { cancel: { signal: bounds.signal } } : {}),
    });
    await session.release();
    return session.catalog.tools.filter((t) => t.server !== INLINE_SERVER);
  } catch {
    return undefined; // the run meets the same failure and records it
  }
}

/**
 * Before a run calls any model: lists the tools of every suite that has servers (its own short-lived connections,
 * closed after) and checks the suites' expected calls against them ({@link checkExpectations}). A mismatch is a
 * SUITE_INVALID usage error listing each problem at its file:line:col.
 */
export async function checkListedExpectations(suites: readonly LoadedSuite[], bounds: ListingBounds): Promise<void> {
  const withServers = suites.filter((s) => !toolsKnownAtLoad(s.suite));
  const inline = (s: LoadedSuite) => (s.suite.tools ?? []).map((t) => ({ ...t, server: INLINE_SERVER }));
  for (const s of suites) if (toolsKnownAtLoad(s.suite)) bounds.onListed?.(s, inline(s));
  if (withServers.length === 0) return;
  const pool = new ServerPool(bounds.pool);
  try {
    for (const loaded of withServers) {
      if (bounds.signal?.aborted) return;
      const serverTools = await listServerTools(pool, loaded, bounds);
      if (!serverTools) continue;
      bounds.onListed?.(loaded, [...serverTools, ...inline(loaded)]);
      const issues = checkExpectations(loaded.suite, loaded.cases, { serverTools });
      if (issues.length === 0) continue;
      // Located only now that there is something to report: the suite is parsed again, with its node positions.
      const { locate } = loadYamlFile(loaded.file, z.unknown(), 'SUITE_INVALID');
      throw problemsError('SUITE_INVALID', loaded.file, issues, locate);
    }
  } finally {
    await pool.closeAll();
  }
}
