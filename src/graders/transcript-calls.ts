import type { Diagnostic, ParsedCall } from '../contracts/parse.js';
import type { SuiteCase } from '../contracts/suite.js';
import type { Transcript } from '../contracts/transcript.js';
import { canonicalJson } from '../util/canonical-json.js';

/** A call the model made, with the tool it addresses (native names mapped back through `request.tools`). */
export interface CallRef {
  call: ParsedCall;
  turn: number;
  tool: string;
  /** The result fed back for this call, when the agent loop executed it. */
  result?: string;
}

/**
 * allCalls per transcript, computed once: most graders ask for them, and a transcript is complete before it is
 * graded (the turn count guards against one that grew since).
 */
const callsOf = new WeakMap<Transcript, { turns: number; refs: readonly CallRef[] }>();

/** Every call in every turn, any shape (the lenient view). Shared between graders: do not mutate. */
export function allCalls(transcript: Transcript): readonly CallRef[] {
  const hit = callsOf.get(transcript);
  if (hit && hit.turns === transcript.turns.length) return hit.refs;
  const refs = findCalls(transcript);
  callsOf.set(transcript, { turns: transcript.turns.length, refs });
  return refs;
}

function findCalls(transcript: Transcript): CallRef[] {
  const refs: CallRef[] = [];
  for (const turn of transcript.turns) {
    const pending = turn.executed.length > 0 ? [...turn.executed] : undefined;
    for (const call of turn.parse.calls) {
      const rendered = turn.request.tools?.find((t) => t.name === call.name);
      const ref: CallRef = { call, turn: turn.index, tool: rendered?.target.tool ?? call.name };
      const at = pending
        ? pending.findIndex((x) =>
            call.id !== undefined && x.callId === call.id
              ? true
              : x.name === call.name && canonicalJson(x.args) === canonicalJson(call.args),
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

/** Python-like rendering for reasons: strings quoted, lists bracketed (matches BFCL's possible-answer look). */
export function show(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
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
