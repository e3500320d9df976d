import { z } from 'zod';
import type { NativeCall } from '../contracts/model.js';
import { ToolgaugeError } from '../errors.js';

/**
 * A recorded tool call, in the shape each API logs it: `{name, arguments}` (also the OpenAI Responses API's
 * `function_call` item, whose id is `call_id`), Chat Completions' `{id, type: 'function', function: {…}}`, or an
 * Anthropic `tool_use` block `{id, name, input}`. The `input` variant comes first: the plain one would otherwise
 * accept a `tool_use` block and drop its arguments.
 */
const ToolCallSchema = z.union(
  [
    z.object({
      id: z.string().optional(),
      name: z.string().min(1),
      input: z.record(z.string(), z.unknown()),
    }),
    z.object({
      id: z.string().optional(),
      call_id: z.string().optional(),
      name: z.string().min(1),
      arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    }),
    z.object({
      id: z.string().optional(),
      function: z.object({
        name: z.string().min(1),
        arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
      }),
    }),
  ],
  {
    error:
      'not a tool call; write {"name", "arguments"} (arguments a JSON string or object), {"function": {"name", "arguments"}} or {"name", "input"}',
  },
);

/** A result the application fed back after a turn (for multi-turn transcripts). */
const ResultSchema = z.object({ name: z.string().min(1), result: z.string(), args: z.unknown().optional() });

const TurnSchema = z.object({
  output: z.string().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  results: z.array(ResultSchema).optional(),
});

/**
 * One line of `grade --outputs F.jsonl` (docs/grading-outputs.md): `{case, output}` (raw model text), `{case, tool_calls}` (native calls), or
 * `{case, turns: [{output?, tool_calls?, results?}]}`. `model` (optional) labels the provider column. BFCL's
 * recorded result lines (`{id, raw, model}`) are accepted as they are: `id` = case, `raw` = output.
 */
export const OutputLineSchema = z
  .object({
    case: z.string().min(1).optional(),
    id: z.string().min(1).optional(),
    output: z.string().optional(),
    raw: z.string().optional(),
    tool_calls: z.array(ToolCallSchema).optional(),
    turns: z.array(TurnSchema).min(1).optional(),
    model: z.string().min(1).optional(),
  })
  .refine((l) => l.case !== undefined || l.id !== undefined, { message: 'needs "case": "<case id>"' })
  .refine((l) => l.output !== undefined || l.raw !== undefined || l.tool_calls || l.turns, {
    message: 'needs "output", "tool_calls" or "turns"',
  });

export interface RecordedTurn {
  text: string;
  toolCalls: NativeCall[];
  results: { name: string; result: string; args?: unknown }[];
}

export interface OutputLine {
  caseId: string;
  model?: string;
  turns: RecordedTurn[];
}

type RawCall = z.infer<typeof ToolCallSchema>;

function nativeOf(c: RawCall, i: number): NativeCall {
  const callId = 'call_id' in c ? c.call_id : undefined;
  const id = c.id ?? callId ?? `call_${i + 1}`;
  if ('input' in c) return { id, name: c.name, arguments: c.input };
  const fn = 'function' in c ? c.function : c;
  return { id, name: fn.name, arguments: fn.arguments ?? {} };
}

/** Validates and normalises one parsed line; returns the first problem as text when it is not a valid line. */
export function toOutputLine(value: unknown): OutputLine | string {
  const parsed = OutputLineSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return `${where}${issue?.message ?? 'invalid line'}`;
  }
  const l = parsed.data;
  const turns: RecordedTurn[] = l.turns
    ? l.turns.map((t) => ({
        text: t.output ?? '',
        toolCalls: (t.tool_calls ?? []).map(nativeOf),
        results: t.results ?? [],
      }))
    : [{ text: l.output ?? l.raw ?? '', toolCalls: (l.tool_calls ?? []).map(nativeOf), results: [] }];
  const line: OutputLine = { caseId: (l.case ?? l.id) as string, turns };
  if (l.model !== undefined) line.model = l.model;
  return line;
}

/** `undefined`, or a string (non-empty when `nonEmpty`): what the schema's optional string fields accept. */
function optionalString(v: unknown, nonEmpty: boolean): boolean {
  return v === undefined || (typeof v === 'string' && (!nonEmpty || v.length > 0));
}

/**
 * toOutputLine with a fast path for the common text line (`{case|id, output|raw, model?}`, no tool calls or
 * turns): checked by hand with the schema's exact rules, normalised the same way. Anything else, valid or not,
 * goes through the zod schema (one zod parse costs more than grading a line).
 */
export function readOutputLine(value: unknown): OutputLine | string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const l = value as Record<string, unknown>;
    if (
      l.tool_calls === undefined &&
      l.turns === undefined &&
      optionalString(l.case, true) &&
      optionalString(l.id, true) &&
      optionalString(l.output, false) &&
      optionalString(l.raw, false) &&
      optionalString(l.model, true) &&
      (l.case !== undefined || l.id !== undefined) &&
      (l.output !== undefined || l.raw !== undefined)
    ) {
      const line: OutputLine = {
        caseId: (l.case ?? l.id) as string,
        turns: [{ text: (l.output ?? l.raw) as string, toolCalls: [], results: [] }],
      };
      if (l.model !== undefined) line.model = l.model as string;
      return line;
    }
  }
  return toOutputLine(value);
}

/**
 * One line of an outputs file as text: the checked line, or null for a blank line. A bad line throws one usage error
 * naming `label:n` and the fix (`hint` adds how the file was read).
 */
export function outputLineFromText(text: string, n: number, label: string, hint = ''): OutputLine | null {
  // (a JSON object line starts with `{`: no copy of the line just to see that it is not blank)
  if (text.charCodeAt(0) !== 123 && text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // JSON.parse says where (`… at position 41`): on a long line that is the part worth reading
    const why = e instanceof Error ? ` (${e.message})` : '';
    throw new ToolgaugeError(
      'USAGE',
      `${label}:${n}: not JSON${why}; each line must be {"case": "<id>", "output": "…"}${hint}`,
    );
  }
  const line = readOutputLine(value);
  if (typeof line === 'string') throw new ToolgaugeError('USAGE', `${label}:${n}: ${line}${hint}`);
  return line;
}
