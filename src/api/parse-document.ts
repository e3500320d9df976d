import type { NativeCall, Protocol } from '../contracts/model.js';
import type { Diagnostic, ParsedCall, ParseTool } from '../contracts/parse.js';
import { acceptedCalls, parseResponse } from '../parse/index.js';
import { type NamedTool, type NameResolution, resolveToolName } from '../util/resolve-tool-name.js';

/** A place in a reply: 1-based line and column (columns count UTF-16 code units, as the offsets do). */
export interface Position {
  line: number;
  col: number;
}

/** One call as `toolgauge parse` reports it: the parser's call, where it sits, what it resolved to, and the verdict. */
export type ReportedCall = ParsedCall & {
  /** Start of the span, and the place just after its last character. Absent for native calls (no text). */
  from?: Position;
  to?: Position;
  /** The offered tool the name stands for; `null` when no tools were given. */
  resolved: NameResolution | null;
  /** Whether a strict detector for the protocol executes it (what `parseable` asks). */
  accepted: boolean;
  /** Why a strict detector does not, when it does not. */
  rejected?: string;
  /** 1-based turn of a multi-turn JSONL line. */
  turn?: number;
};

/** One diagnostic of the parser, placed in the reply like a call (and tagged with its turn in a multi-turn line). */
export type ReportedDiagnostic = Diagnostic & { from?: Position; to?: Position; turn?: number };

/** The tools the calls were resolved against, and where they came from. */
export interface OfferedTools {
  /** `suite <name>, case <id>`, or `file <path>`. */
  source: string;
  tools: readonly (ParseTool & NamedTool)[];
}

/** What `toolgauge parse` reports for one reply, or for one JSONL line (every turn's calls, tagged with the turn). */
export interface ParseDocument {
  input: string;
  /** JSONL only: the line number, the case and the model the line names. */
  line?: number;
  case?: string;
  model?: string;
  protocol: Protocol;
  tools: { source: string; names: string[] } | null;
  /** Every call found, in reply order (turn by turn). */
  calls: ReportedCall[];
  /** How many calls a strict detector for `protocol` executes. */
  accepted: number;
  diagnostics: ReportedDiagnostic[];
  /** JSONL lines with `turns`: how many replies the line holds. */
  turns?: number;
}

/** One recorded reply: its text and the native calls logged with it. */
export interface Reply {
  text: string;
  toolCalls: NativeCall[];
}

/**
 * Parses the replies of one input (one plain reply, or the turns of a JSONL line) as `grade` parses them under
 * `protocol`, with the offered tools when known, and reports each call's place, resolution and strict verdict.
 */
export function parseDocument(
  head: { input: string; line?: number; case?: string; model?: string },
  replies: readonly Reply[],
  protocol: Protocol,
  offered: OfferedTools | null,
): ParseDocument {
  const calls: ReportedCall[] = [];
  const diagnostics: ReportedDiagnostic[] = [];
  const multi = replies.length > 1;
  for (const [i, reply] of replies.entries()) {
    const result = parseResponse(reply, protocol, offered ? { tools: offered.tools } : {});
    const accepted = new Set(acceptedCalls(result, protocol));
    const lines = lineStarts(reply.text);
    const turn = multi ? { turn: i + 1 } : {};
    for (const call of result.calls) {
      const ok = accepted.has(call);
      calls.push({
        ...call,
        ...placed(call.span, lines),
        resolved: offered ? resolveToolName(call.name, offered.tools) : null,
        accepted: ok,
        ...(ok ? {} : { rejected: rejection(call, protocol) }),
        ...turn,
      });
    }
    for (const d of result.diagnostics) diagnostics.push({ ...d, ...placed(d.span, lines), ...turn });
  }
  return {
    ...head,
    protocol,
    tools: offered ? { source: offered.source, names: offered.tools.map((t) => t.name) } : null,
    calls,
    accepted: calls.filter((c) => c.accepted).length,
    diagnostics,
    ...(multi ? { turns: replies.length } : {}),
  };
}

/** Why a strict detector for `protocol` passes a call by (acceptedCalls: the protocol's shape, arguments as written). */
function rejection(call: ParsedCall, protocol: Protocol): string {
  const why: string[] = [];
  if (call.via !== protocol) {
    const shape =
      call.via === 'fenced' || call.via === 'inline-code'
        ? `${call.inner ?? 'a call'} inside ${call.via === 'fenced' ? `a \`\`\`${call.fence ?? ''} fence` : 'inline code'}`
        : call.via;
    why.push(`found as ${shape}, and the ${protocol} protocol reads only ${protocol} calls`);
  }
  if (call.repaired) why.push('its arguments only parse after repair');
  return why.join('; ');
}

/** Offsets where each line of `text` starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function placed(span: [number, number] | undefined, lines: number[]): { from?: Position; to?: Position } {
  return span ? { from: positionAt(span[0], lines), to: positionAt(span[1], lines) } : {};
}

function positionAt(offset: number, lines: number[]): Position {
  // the last line start at or before the offset
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lines[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, col: offset - (lines[lo] as number) + 1 };
}
