import type { Diagnostic, ParsedCall } from '../contracts/parse.js';
import type { SuiteCase } from '../contracts/suite.js';
import type { Transcript, Turn } from '../contracts/transcript.js';
import { canonicalJson } from '../util/canonical-json.js';
import { type NamedTool, resolveToolName } from '../util/resolve-tool-name.js';

/**
 * A call the model made, with the tool it addresses: a native name mapped back through `request.tools`, else the
 * called name resolved against the offered tools (src/catalog/resolve-tool-name.ts), else the name as called.
 */
export interface CallRef {
  call: ParsedCall;
  turn: number;
  tool: string;
  /**
   * How the called name was resolved when it is neither the tool's own name nor its rendered native name: `qualified`
   * or `provider-safe` (`tool` is the offered tool), or `ambiguous` (`tool` is the name as called: a hallucination).
   */
  resolution?: CallResolution;
  /** The result fed back for this call, when the agent loop executed it. */
  result?: string;
}

/** A name resolution other than exact or unknown (src/catalog/resolve-tool-name.ts). */
export type CallResolution =
  | { how: 'qualified' | 'provider-safe'; tool: string; server?: string; called: string }
  | { how: 'ambiguous'; candidates: string[]; called: string };

/**
 * allCalls per transcript and offered tools list, computed once: most graders ask for them, and a transcript is
 * complete before it is graded (the turn count guards against one that grew since).
 */
const callsOf = new WeakMap<
  Transcript,
  { turns: number; byTools: Map<readonly NamedTool[] | undefined, readonly CallRef[]> }
>();

/**
 * Every call in every turn, any shape (the lenient view), each with the tool it addresses among `tools`, the tools
 * the model was offered (GradeInput.tools; without them names are taken as called). Shared between graders: do not
 * mutate.
 */
export function allCalls(transcript: Transcript, tools?: readonly NamedTool[]): readonly CallRef[] {
  let hit = callsOf.get(transcript);
  if (!hit || hit.turns !== transcript.turns.length) {
    hit = { turns: transcript.turns.length, byTools: new Map() };
    callsOf.set(transcript, hit);
  }
  const known = hit.byTools.get(tools);
  if (known) return known;
  const refs = findCalls(transcript, tools);
  hit.byTools.set(tools, refs);
  return refs;
}

/**
 * A call to the request's search tool (a tool-search strategy): the runner's, not one of the catalog's tools. Graders
 * judge the calls to real tools; searches are counted apart (the tool-search grader) and are never hallucinations.
 */
export function isSearchCall(turn: Turn, call: ParsedCall): boolean {
  return turn.request.toolSearch !== undefined && call.name === turn.request.toolSearch.tool;
}

/** A turn's calls without the searches (every call when the request offered no search tool). */
export function toolCalls(turn: Turn, calls: readonly ParsedCall[] = turn.parse.calls): readonly ParsedCall[] {
  return turn.request.toolSearch ? calls.filter((c) => !isSearchCall(turn, c)) : calls;
}

function findCalls(transcript: Transcript, tools: readonly NamedTool[] | undefined): CallRef[] {
  const refs: CallRef[] = [];
  for (const turn of transcript.turns) {
    const pending = turn.executed.length > 0 ? [...turn.executed] : undefined;
    for (const call of toolCalls(turn)) {
      const rendered = turn.request.tools?.find((t) => t.name === call.name);
      const ref: CallRef = { call, turn: turn.index, tool: rendered?.target.tool ?? call.name };
      if (!rendered && tools && tools.length > 0) {
        const r = resolveToolName(call.name, tools);
        if (r.how === 'qualified' || r.how === 'provider-safe') {
          ref.tool = r.tool;
          ref.resolution = { ...r, how: r.how };
        } else if (r.how === 'ambiguous') ref.resolution = r;
      }
      const at = pending
        ? pending.findIndex((x) =>
            call.id !== undefined && x.callId === call.id
              ? true
              : // the runner executes the parsed arguments object itself: the same object needs no canonical text
                x.name === call.name && (x.args === call.args || canonicalJson(x.args) === canonicalJson(call.args)),
          )
        : -1;
      if (pending && at >= 0) {
        ref.result = pending[at]!.result;
        pending.splice(at, 1);
      }
      refs.push(ref);
    }
  }
  return refs;
}

export function callKey(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalJson(args)}`;
}

/**
 * An identical call repeated in the next turn with the same result (a loop) counts once. The same call with a
 * changed result is polling (a simulation's status) and counts each time, so suites can expect it twice.
 * Identical calls within one reply are distinct calls (BFCL's parallel answers repeat a call on purpose).
 */
export function dedupeConsecutive(refs: readonly CallRef[]): CallRef[] {
  const out: CallRef[] = [];
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i] as CallRef;
    const prev = refs[i - 1];
    if (
      !prev ||
      prev.turn === r.turn ||
      callKey(prev.tool, prev.call.args) !== callKey(r.tool, r.call.args) ||
      prev.result !== r.result
    )
      out.push(r);
  }
  return out;
}

/** Diagnostics of a call attempt the parser could not turn into a call (malformed arguments, a wrong shape). */
const ATTEMPT_CODES: ReadonlySet<Diagnostic['code']> = new Set(['unparseable-arguments', 'wrong-shape']);

/** The malformed call attempts of every turn: still attempts for no-call, the reason nothing parsed for the rest. */
export function malformedAttempts(transcript: Transcript): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const t of transcript.turns) for (const d of t.parse.diagnostics) if (ATTEMPT_CODES.has(d.code)) out.push(d);
  return out;
}

export function expectsCalls(c: SuiteCase): boolean {
  return !c.expect.no_call && (c.expect.calls?.length ?? 0) > 0;
}

/** How a wrapped call reads in a report: ```` ```tool_call ````, ```` ``` ````, or `` ` `` for inline code. */
export function fenceLabel(call: ParsedCall): string {
  if (call.via === 'inline-code') return '`';
  return `\`\`\`${call.fence ?? ''}`;
}

export function isWrapped(call: ParsedCall): boolean {
  return call.via === 'fenced' || call.via === 'inline-code';
}

/** Characters of a string value a reason shows (arguments kept as JSON text can be megabytes). */
const MAX_SHOWN = 300;

/** Python-like rendering for reasons: strings quoted, lists bracketed (matches BFCL's possible-answer look). */
export function show(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value}'`;
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${show(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

export function showCall(tool: string, args: unknown): string {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return `${tool}(${show(args)})`;
  let out = `${tool}(`;
  let first = true;
  for (const k in args) {
    if (!Object.hasOwn(args, k)) continue;
    out += `${first ? '' : ', '}${k}=${show((args as Record<string, unknown>)[k])}`;
    first = false;
  }
  return `${out})`;
}
