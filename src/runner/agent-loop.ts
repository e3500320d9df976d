import type { CaseSession } from '../catalog/server-pool.js';
import type { Message, ModelRequest, NativeCall, Oracle } from '../contracts/model.js';
import type { ParseContext, ParsedCall } from '../contracts/parse.js';
import type { Provider } from '../contracts/provider.js';
import type { ToolDef } from '../contracts/tool.js';
import type { ToolExecution, Transcript, Turn } from '../contracts/transcript.js';
import { ToolgaugeError } from '../errors.js';
import { acceptedCalls, parseResponse } from '../parse/index.js';
import { parseTools } from '../parse/parse-tools.js';
import type { ToolSearchRuntime } from '../presentation/tool-search.js';
import { feedbackMessages } from './feedback.js';
import { checkReplyShape } from './reply-shape.js';
import { reportedUsage } from './reported-usage.js';
import { routeCall } from './route-call.js';

/**
 * The most calls of one reply executed against the servers: a model that answers with thousands of calls (a runaway or
 * hostile one; a reply of a few MB can hold 100,000) would otherwise run every one, each result kept in the run log
 * and sent back. The calls past it are answered as not executed, and graded as the model made them.
 */
export const MAX_EXECUTED_CALLS = 128;

export interface LoopLimits {
  maxTurns: number;
  turnMs: number;
  toolMs: number;
}

/** Thrown out of the loop with the transcript so far, so an errored case still shows what happened. */
export class LoopError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly transcript: Transcript,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * The agent loop: generate → parse → execute the calls a strict detector for the protocol would find →
 * feed the results back in the protocol's shape → repeat, until a reply has no call or maxTurns. `offered` is the
 * tool list the request was rendered from (the case's catalog after filtering): replies are parsed knowing those
 * tools, and called names resolve against them as the graders resolve them. Without it, the session's catalog.
 * `search`: a tool-search strategy's runtime, which answers the search tool's calls.
 */
export async function runAgentLoop(
  first: ModelRequest,
  provider: Provider,
  session: CaseSession,
  limits: LoopLimits,
  abort: CaseAbort,
  offered: readonly ToolDef[] = session.catalog.tools,
  search?: ToolSearchRuntime,
  oracle?: Oracle,
): Promise<Transcript> {
  const turns: Turn[] = [];
  const parts: LoopParts = {
    first,
    provider,
    session,
    limits,
    abort,
    offered,
    ...(search ? { search } : {}),
    ...(oracle ? { oracle } : {}),
  };
  const end = await answerMessage(parts, turns, {
    messages: [...first.messages],
    maxTurns: limits.maxTurns,
  });
  return { turns, finalText: end.finalText, stopReason: end.stopReason };
}

/** What every user message of a case is answered with. */
export interface LoopParts {
  /** The case's first request: the system prompt, tools, protocol and meta every later request keeps. */
  first: ModelRequest;
  /** The first message's expectations, passed to a simulated provider beside each request (never in it). */
  oracle?: Oracle;
  provider: Provider;
  session: CaseSession;
  limits: LoopLimits;
  abort: CaseAbort;
  offered: readonly ToolDef[];
  /**
   * A tool-search strategy's runtime: answers calls to the search tool and remembers what the searches loaded for the
   * whole case, so a tool found while answering one user message stays loaded for the next ones.
   */
  search?: ToolSearchRuntime;
}

/** One user message to answer: the messages up to it (it last), its turn budget, and, in a conversation, its index. */
export interface MessageToAnswer {
  messages: Message[];
  maxTurns: number;
  userTurn?: number;
  /** The persona's expectations for this message (a conversation's later messages); default: the first message's. */
  oracle?: Oracle;
}

/** How the answer to one user message ended, and the messages as last sent (without the final reply). */
export interface MessageEnd {
  stopReason: Transcript['stopReason'];
  finalText: string;
  messages: Message[];
}

/**
 * The agent loop for one user message, appending its model turns to `turns` (the whole conversation's, which an error
 * carries out in its transcript).
 */
export async function answerMessage(parts: LoopParts, turns: Turn[], todo: MessageToAnswer): Promise<MessageEnd> {
  const { first, provider, session, limits, abort, offered, search } = parts;
  let messages = todo.messages;
  // the case's expectations go to a simulated persona only, beside the request
  const oracle = provider.simulated ? (todo.oracle ?? parts.oracle) : undefined;
  // the search tool is a name a reply may call too (a text protocol's call to it is read like any other)
  const parseOffered = search ? [...offered, { name: search.spec.tool, inputSchema: {}, server: '' }] : offered;
  const context: ParseContext = { tools: parseTools(parseOffered, first.tools) };
  const transcript = (stopReason: Transcript['stopReason'], finalText: string): Transcript => ({
    turns,
    finalText,
    stopReason,
  });
  for (let n = 0; n < todo.maxTurns; n++) {
    const index = turns.length;
    if (abort.isAborted)
      throw new LoopError(new ToolgaugeError('ABORTED', 'run interrupted'), transcript('aborted', ''));
    // with tool search, the native tools offered now: the first request's and those the case's searches loaded since
    const tools = search ? search.nativeTools : first.tools;
    const request: ModelRequest = {
      ...first,
      ...(tools ? { tools } : {}),
      messages: [...messages],
      meta: { ...first.meta, turn: index },
    };
    let response: Awaited<ReturnType<Provider['generate']>>;
    try {
      const reply = await withTimeout(
        (signal) => provider.generate(request, signal, oracle),
        limits.turnMs,
        abort,
        `${provider.id} did not answer turn ${index + 1}`,
      );
      response = reportedUsage(checkReplyShape(provider.id, reply));
    } catch (e) {
      // A turn timeout aborts the case too, but ends it as an error like any provider failure.
      const timedOut = e instanceof ToolgaugeError && e.code === 'PROVIDER_TIMEOUT';
      throw new LoopError(e, transcript(abort.isAborted && !timedOut ? 'aborted' : 'error', ''));
    }
    const parse = parseResponse(response, first.protocol, context);
    const accepted = acceptedCalls(parse, first.protocol);
    const turn: Turn = {
      index,
      ...(todo.userTurn !== undefined ? { userTurn: todo.userTurn } : {}),
      request,
      response,
      parse,
      executed: [],
    };
    turns.push(turn);
    if (accepted.length === 0) return { stopReason: 'answered', finalText: response.text, messages };
    try {
      turn.executed = await executeCalls(
        request,
        response.toolCalls,
        accepted,
        session,
        offered,
        limits.toolMs,
        index,
        abort,
        search,
      );
    } catch (e) {
      throw new LoopError(e, transcript('error', response.text));
    }
    messages = [...messages, ...feedbackMessages(first.protocol, response.text, response.toolCalls, turn.executed)];
  }
  return { stopReason: 'max-turns', finalText: turns.at(-1)?.response.text ?? '', messages };
}

async function executeCalls(
  request: ModelRequest,
  nativeCalls: NativeCall[],
  accepted: ParsedCall[],
  session: CaseSession,
  offered: readonly ToolDef[],
  toolMs: number,
  turnIndex: number,
  abort: CaseAbort,
  search: ToolSearchRuntime | undefined,
): Promise<ToolExecution[]> {
  // Native APIs need an answer for every call id the model sent, even ones whose arguments did not parse.
  const work: { call: ParsedCall | undefined; id: string; name: string }[] =
    request.protocol === 'native'
      ? nativeCalls.map((n) => ({ call: accepted.find((a) => a.id === n.id), id: n.id, name: n.name }))
      : accepted.map((a, i) => ({ call: a, id: a.id ?? `call_${turnIndex + 1}_${i + 1}`, name: a.name }));
  const out: ToolExecution[] = [];
  const max = request.maxCallsPerTurn ?? Number.POSITIVE_INFINITY;
  for (const [i, { call, id, name }] of work.entries()) {
    const started = performance.now();
    if (i >= max || i >= MAX_EXECUTED_CALLS) {
      // a Cline-style agent runs the first tool of a message and tells the model the others did not run
      const why =
        i >= max
          ? 'use one tool per message, and call it again in your next message'
          : `this message holds ${work.length} tool calls, more than the ${MAX_EXECUTED_CALLS} run from one message`;
      out.push({
        callId: id,
        name,
        server: '',
        tool: name,
        args: call?.args,
        result: `${name} was not executed: ${why}.`,
        isError: true,
        durationMs: 0,
      });
      continue;
    }
    if (search?.handles(name)) {
      // the search tool is the runner's: answered here, never routed to a server
      const answer = call
        ? search.answer(call.args)
        : { text: `The arguments of ${name} are not valid JSON.`, isError: true, found: [] };
      out.push({
        callId: id,
        name,
        server: '',
        tool: name,
        args: call?.args,
        result: answer.text,
        isError: answer.isError,
        durationMs: performance.now() - started,
        loaded: answer.found,
      });
      continue;
    }
    const route = routeCall(name, request.tools, offered);
    const target = route.target;
    const base = { callId: id, name, server: target?.server ?? '', tool: target?.tool ?? name, args: call?.args };
    let result: { text: string; isError: boolean };
    if (!call) result = { text: `The arguments of ${name} are not valid JSON; nothing was executed.`, isError: true };
    else if (route.ambiguous)
      result = {
        text: `Ambiguous tool name: ${name} could be any of ${route.ambiguous.join(', ')}. Call the tool by the name it was listed under.`,
        isError: true,
      };
    else if (!target)
      result = { text: `Unknown tool: ${name}. Use one of the tools listed in the instructions.`, isError: true };
    else if (!isPlainObject(call.args))
      result = { text: `The arguments of ${name} must be a JSON object.`, isError: true };
    else if (search && !search.isLoaded(target.server, target.tool))
      result = {
        text: `${name} is not loaded: find it with ${search.spec.tool} first, then call it.`,
        isError: true,
      };
    else if (isDistractor(offered, target))
      // a distractor's server is not part of the case: it answers as an unreachable tool would, saying nothing of why
      result = { text: `${name} is not available right now.`, isError: true };
    // The case's cancellation ends a call in flight at once (Ctrl-C, case timeout): nothing waits out toolMs.
    else result = await session.call(target.server, target.tool, call.args, toolMs, abort);
    out.push({ ...base, result: result.text, isError: result.isError, durationMs: performance.now() - started });
  }
  return out;
}

/** Whether a call goes to a tool a catalog variant added as a distractor. */
function isDistractor(offered: readonly ToolDef[], target: { server: string; tool: string }): boolean {
  return offered.some((t) => t.distractor === true && t.name === target.tool && t.server === target.server);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A case's cancellation (run interrupted, case or turn timed out): its AbortSignal, given to every provider turn and
 * tool call, and a promise that rejects when it fires, so a turn never waits past the bound even for a provider that
 * ignores its signal.
 */
export class CaseAbort {
  private readonly controller = new AbortController();
  private reject: (reason: unknown) => void = () => {};
  readonly aborted = new Promise<never>((_, reject) => {
    this.reject = reject;
  });

  constructor() {
    this.aborted.catch(() => {}); // observed by the races below, or by nobody when the case ends normally
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get isAborted(): boolean {
    return this.controller.signal.aborted;
  }

  abort(reason: unknown): void {
    if (this.isAborted) return;
    this.controller.abort(reason);
    this.reject(reason);
  }
}

/** Runs `fn` with the case's signal; past `ms` the case is aborted with a PROVIDER_TIMEOUT error. */
export async function withTimeout<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  ms: number,
  abort: CaseAbort,
  what: string,
): Promise<T> {
  const timer = setTimeout(() => abort.abort(new ToolgaugeError('PROVIDER_TIMEOUT', `${what} within ${ms} ms`)), ms);
  try {
    return await Promise.race([fn(abort.signal), abort.aborted]);
  } finally {
    clearTimeout(timer);
  }
}
