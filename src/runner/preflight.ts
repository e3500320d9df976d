import { z } from 'zod';
import { type PoolOptions, ServerPool } from '../catalog/server-pool.js';
import { checkExpectations, toolsKnownAtLoad } from '../config/check-expectations.js';
import { sharedStateServers } from '../config/check-state-facts.js';
import type { LoadedSuite } from '../config/load-suite.js';
import { loadYamlFile, problemsError } from '../config/load-yaml.js';
import { findCase, firstCase } from '../config/suite-cases.js';
import { INLINE_SERVER } from '../config/suite-schema.js';
import type { ToolDef } from '../contracts/tool.js';
import { printable } from '../util/printable.js';

/*
 * The run's preflight: what is checked against live servers before any model is called. Loading a suite starts
 * nothing (src/config checks inline tools only); the suites whose tools come from servers are checked here.
 */

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
