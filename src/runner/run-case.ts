import type { ServerPool } from '../catalog/server-pool.js';
import type { Grade, Grader } from '../contracts/grade.js';
import type { Transcript } from '../contracts/transcript.js';
import { errorMessage, isToolgaugeError } from '../errors.js';
import { gradeCase } from '../graders/grade-case.js';
import { ToolSearchRuntime } from '../presentation/tool-search.js';
import { renderCase } from '../render/render-case.js';
import { RunContext } from '../render/run-context.js';
import type { CaseRecord } from '../run-log/schema.js';
import { CaseAbort, LoopError } from './agent-loop.js';
import { runConversation } from './conversation.js';
import { observeState } from './observe-state.js';
import type { PlanItem } from './plan.js';

export interface CaseSettings {
  seed: number;
  maxTurns: number;
  turnMs: number;
  caseMs: number;
  toolMs: number;
  /** How long the case's servers may take to start and list their tools. */
  serverStartMs: number;
  graders: Grader[];
  /** Folder holding the schema cache (`<config dir>/schemas/<suite>.json`'s parent). */
  schemaDir: string;
  /** The run's catalogs, prepared renderers and token counts (runEval makes one per run); absent, the case's own. */
  context?: RunContext;
}

/** Runs one planned item end to end and returns its run-log record. Never throws for model or infra faults. */
export async function runCase(item: PlanItem, pool: ServerPool, settings: CaseSettings, runSignal: AbortSignal) {
  const started = new Date();
  const t0 = performance.now();
  const { suite, strategy, provider } = item;
  const c = item.case;
  const context = settings.context ?? new RunContext();
  const deadline = caseDeadline(runSignal, settings.caseMs);
  const { abort } = deadline;
  let transcript: Transcript = { turns: [], finalText: '', stopReason: 'error' };
  let error: CaseRecord['error'];
  let grades: Grade[] = [];
  let promptTokens = 0;
  let protocol: CaseRecord['protocol'] = 'xml-tags';
  let catalogHash = '';
  let catalogDrift: CaseRecord['catalogDrift'];
  // Starting the servers and listing their tools have their own bound (a start may be slower than any tool call: a
  // process to spawn, a package to fetch), and end at once on Ctrl-C.
  const bounds = { timeoutMs: settings.serverStartMs, setting: 'timeouts.serverStartMs', cancel: abort };
  const session = await pool.openCase(suite, c, bounds).catch((e: unknown) => e as Error);
  try {
    if (session instanceof Error) throw session;
    const { catalog, tools, rendered, prepared, request, oracle } = renderCase({
      suite,
      testCase: c,
      live: session.catalog,
      strategy,
      provider: { id: provider.id, kind: provider.provider.kind },
      schemaDir: settings.schemaDir,
      trial: { repeat: item.repeat, seed: settings.seed },
      context,
    });
    if (catalog.drift) catalogDrift = catalog.drift;
    catalogHash = catalog.hash;
    protocol = rendered.protocol;
    promptTokens = context.prompts.count(rendered);
    const limits = { maxTurns: c.maxTurns ?? settings.maxTurns, turnMs: settings.turnMs, toolMs: settings.toolMs };
    // routed and parsed against the tools the grade judges by (filtered, or the schema cache; as served, whatever the
    // catalog variant showed the model)
    const search = rendered.toolSearch
      ? new ToolSearchRuntime(rendered.toolSearch, catalog.tools, prepared, context.searches, rendered.tools)
      : undefined;
    const parts = {
      first: request,
      oracle,
      provider: provider.provider,
      session,
      limits,
      abort,
      offered: tools,
      ...(search ? { search } : {}),
    };
    transcript = await runConversation(parts, c);
    if (c.expect.state) {
      const servers = Object.keys(suite.suite.servers ?? {});
      const access = { servers, session, timeoutMs: settings.toolMs, cancel: abort };
      transcript = { ...transcript, state: await observeState(c.expect.state, access) };
    }
    grades = gradeCase(settings.graders, {
      case: c,
      transcript,
      protocol,
      tools,
      ...(catalog.tools !== tools ? { shown: catalog.tools } : {}),
    });
  } catch (e) {
    const cause = e instanceof LoopError ? e.cause : e;
    if (e instanceof LoopError) transcript = e.transcript;
    const timedOut = !runSignal.aborted && deadline.timedOut;
    error = {
      code: timedOut ? 'CASE_TIMEOUT' : isToolgaugeError(cause) ? cause.code : 'INTERNAL',
      message: timedOut ? `case did not finish within ${settings.caseMs} ms` : errorMessage(cause),
    };
  } finally {
    deadline.end();
    if (!(session instanceof Error)) await session.release();
  }
  const record: CaseRecord = {
    type: 'case',
    key: item.key,
    suite: suite.suite.name,
    case: c.id,
    renderer: strategy.label,
    provider: provider.label,
    simulated: provider.provider.simulated,
    repeat: item.repeat,
    protocol,
    catalogHash,
    ...(catalogDrift ? { catalogDrift } : {}),
    promptTokens,
    ...(c.tags?.length ? { tags: [...c.tags] } : {}),
    transcript,
    grades,
    startedAt: started.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    usage: usageOf(transcript),
    ...(error ? { error } : {}),
  };
  return record;
}

/**
 * The case's abort: on Ctrl-C of the run, or when the case outlives `caseMs`. One controller per case rather than
 * AbortSignal.any([run, AbortSignal.timeout()]): in Node 20 `any` keeps weak refs and per-signal timers that cost
 * ~40 µs a case, a tenth of a zero-latency case. Turns share it (CaseAbort).
 */
function caseDeadline(runSignal: AbortSignal, caseMs: number) {
  const abort = new CaseAbort();
  const onRunAbort = () => abort.abort(runSignal.reason);
  if (runSignal.aborted) onRunAbort();
  else runSignal.addEventListener('abort', onRunAbort, { once: true });
  const state = {
    abort,
    timedOut: false,
    end() {
      clearTimeout(timer);
      runSignal.removeEventListener('abort', onRunAbort);
    },
  };
  const timer = setTimeout(() => {
    state.timedOut = true;
    abort.abort(new DOMException(`case did not finish within ${caseMs} ms`, 'TimeoutError'));
  }, caseMs);
  return state;
}

/** Tokens over every turn of a transcript. */
function usageOf(transcript: Transcript): CaseRecord['usage'] {
  const usage: CaseRecord['usage'] = { input: 0, output: 0, cached: 0 };
  for (const t of transcript.turns) {
    usage.input += t.response.usage?.input ?? 0;
    usage.output += t.response.usage?.output ?? 0;
    usage.cached = (usage.cached ?? 0) + (t.response.usage?.cached ?? 0);
    // prompt-cache writes only where the provider reports them (Anthropic)
    if (t.response.usage?.cacheWrite !== undefined)
      usage.cacheWrite = (usage.cacheWrite ?? 0) + t.response.usage.cacheWrite;
  }
  return usage;
}
