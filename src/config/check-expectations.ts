import type { Expect, ExpectedCall, SuiteCase } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { filterTools } from '../util/tool-filter.js';
import { checkParameters } from './check-parameters.js';
import { checkFact } from './check-state-facts.js';
import type { SuiteHead } from './load-suite.js';
import type { SemanticIssue } from './load-yaml.js';
import { listNames, suggestion } from './name-suggestion.js';

export { declaredParameters } from './check-parameters.js';

import { INLINE_SERVER } from './suite-schema.js';

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
