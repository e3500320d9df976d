import { z } from 'zod';
import { INLINE_SERVER, type PoolOptions, ServerPool } from '../catalog/server-pool.js';
import { filterTools } from '../catalog/tool-filter.js';
import type { Expect, ExpectedCall, SuiteCase } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { printable } from '../util/printable.js';
import { checkParameters } from './check-parameters.js';
import { checkFact, sharedStateServers } from './check-state-facts.js';
import type { LoadedSuite, SuiteHead } from './load-suite.js';
import { loadYamlFile, problemsError, type SemanticIssue } from './load-yaml.js';
import { listNames, suggestion } from './name-suggestion.js';

export { declaredParameters } from './check-parameters.js';

import { findCase, firstCase } from './suite-cases.js';

/** A suite's tools as the check needs them: those of its servers (listed) and its inline ones. */
export interface SuiteTools {
  /** The tools the suite's servers list (none for a suite of inline tools only). */
  serverTools: readonly ToolDef[];
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
  const servers = Object.keys(suite.servers ?? {});
  for (const [at0, testCase] of indexed(cases)) {
    const i = at0 + firstIndex;
    const lists = expectedCallLists(testCase);
    const facts = testCase.expect.state ?? [];
    if (lists.length === 0 && facts.length === 0) continue;
    // A case with neither its own functions nor its own filter offers the suite's tools, as every such case does.
    const own = testCase.functions !== undefined || testCase.tools !== undefined;
    if (!own) suiteWide ??= offeredTools(suite, testCase, tools);
    const { all, offered } = own || !suiteWide ? offeredTools(suite, testCase, tools) : suiteWide;
    for (const { path, calls } of lists) {
      for (const [j, call] of calls.entries()) issues.push(...checkCall(call, ['cases', i, ...path, j], all, offered));
    }
    for (const [j, fact] of facts.entries())
      issues.push(...checkFact(fact, ['cases', i, 'expect', 'state', j], servers, tools));
  }
  return issues;
}

/** Every list of expected calls of a case, with where it is written: its `expect`'s, or each turn's. */
function expectedCallLists(c: SuiteCase): Array<{ path: PropertyKey[]; calls: readonly ExpectedCall[] }> {
  const out: Array<{ path: PropertyKey[]; calls: readonly ExpectedCall[] }> = [];
  const add = (at: PropertyKey[], e: Expect | undefined) => {
    if (e?.calls?.length) out.push({ path: [...at, 'calls'], calls: e.calls });
    for (const [k, alt] of (e?.alternatives ?? []).entries())
      out.push({ path: [...at, 'alternatives', k], calls: alt });
  };
  if (c.turns) for (const [t, turn] of c.turns.entries()) add(['turns', t, 'expect'], turn.expect);
  else add(['expect'], c.expect);
  return out;
}

/** One expected call: its tool is offered to the case, and each parameter it names is one the tool declares. */
function checkCall(
  call: ExpectedCall,
  at: PropertyKey[],
  all: readonly ToolDef[],
  offered: readonly ToolDef[],
): SemanticIssue[] {
  const tool = offered.find((t) => t.name === call.tool);
  if (!tool) {
    const filtered = all.some((t) => t.name === call.tool);
    return [
      {
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
      },
    ];
  }
  return checkParameters(call.tool, tool, mentionedParameters(call), at);
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
  for (const loaded of withServers) {
    for (const server of sharedStateServers(loaded.suite, loaded.cases))
      bounds.pool?.notify?.(
        `toolgauge: suite '${printable(loaded.suite.name)}' judges state (expect.state) on '${printable(server)}', a stdio server every case shares: one case's writes are the next one's start; set \`isolate: true\` on it (docs/multi-turn.md)`,
      );
  }
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
