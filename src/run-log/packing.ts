/*
 * The derivation rules of format 2's packed case records (docs/run-log.md). A field that one of these rules gives
 * back exactly is left out on write and restored on read; the record's `packed` field names the rules its decoding
 * applies, one letter each. The rules are part of the format: they are written out here rather than imported from the
 * runner or the simulated providers, so a later change there cannot change how an existing log reads (the writer
 * only leaves a field out when the rule, as written here, gives that field back).
 */

import type { Grade } from '../contracts/grade.js';
import type { Message, ModelResponse, NativeCall, Protocol } from '../contracts/model.js';
import type { ToolExecution, Turn } from '../contracts/transcript.js';
import type { CaseRecord } from './schema.js';

/** The rules, by letter. The order a record's `packed` lists them in carries no meaning. */
export const RULES = {
  /** `key` left out: `suite/case|renderer|provider|repeat` (the plan's key). */
  key: 'k',
  /** The record's `usage` left out: the sum of its turns' usage, as the runner sums it. */
  usage: 'u',
  /** `transcript.finalText` left out: the last turn's reply text. */
  finalText: 'f',
  /** A turn's `request.meta` left out: the case, repeat, renderer and turn index of the record, the header's seed. */
  meta: 'm',
  /** A turn's `request.protocol` left out: the record's protocol (it follows `messages`). */
  protocol: 'p',
  /** A later turn's `request.messages` left out: the previous turn's, then its reply and tool results fed back. */
  fedBack: 'c',
  /** A reply holding only `text` (and `toolCalls` when it has calls): a simulated provider's envelope around it. */
  simEnvelope: 's',
  /** A string in `grades`: the hash of a blob holding that grade's JSON. */
  gradeRefs: 'g',
  /** A later turn's raw wire request holds only what its array fields add to the previous turn's (wire-prefix.ts). */
  wirePrefix: 'w',
  /** A long string met before in the record is written as null; `same` says where it is (repeated-strings.ts). */
  repeatedStrings: 'd',
} as const;

export type Rule = (typeof RULES)[keyof typeof RULES];

const LETTERS = new Set<string>(Object.values(RULES));

/** Whether `packed` is a list of known rules (a reader refuses a record packed by rules it does not know). */
export function knownRules(packed: string): boolean {
  for (const c of packed) if (!LETTERS.has(c)) return false;
  return true;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Rule k. */
export function keyOf(r: Partial<Record<'suite' | 'case' | 'renderer' | 'provider' | 'repeat', unknown>>) {
  return `${String(r.suite)}/${String(r.case)}|${String(r.renderer)}|${String(r.provider)}|${String(r.repeat)}`;
}

/** Whether `key` is keyOf(r), told without making the key (the writer asks for every record). */
export function isDerivedKey(
  key: unknown,
  r: Partial<Record<'suite' | 'case' | 'renderer' | 'provider' | 'repeat', unknown>>,
): boolean {
  const { suite, case: id, renderer, provider, repeat } = r;
  if (typeof key !== 'string' || typeof suite !== 'string' || typeof id !== 'string') return false;
  if (typeof renderer !== 'string' || typeof provider !== 'string' || typeof repeat !== 'number') return false;
  const a = suite.length;
  const b = a + 1 + id.length;
  const c = b + 1 + renderer.length;
  const d = c + 1 + provider.length;
  return (
    key.charCodeAt(a) === 47 && // '/'
    key.charCodeAt(b) === 124 && // '|'
    key.charCodeAt(c) === 124 &&
    key.charCodeAt(d) === 124 &&
    key.startsWith(suite) &&
    key.startsWith(id, a + 1) &&
    key.startsWith(renderer, b + 1) &&
    key.startsWith(provider, c + 1) &&
    key.endsWith(String(repeat)) &&
    key.length === d + 1 + String(repeat).length
  );
}

/** The run's seed as the header's effective config holds it; undefined when it holds none (rule m is then unused). */
export function seedOf(header: unknown): number | undefined {
  const seed = isObject(header) && isObject(header.config) ? header.config.seed : undefined;
  return typeof seed === 'number' ? seed : undefined;
}

/** Rule m: the request's meta, as the renderer and the agent loop write it. */
export function metaOf(r: Pick<CaseRecord, 'suite' | 'case' | 'repeat' | 'renderer'>, seed: number, turn: number) {
  return { caseId: `${r.suite}/${r.case}`, repeat: r.repeat, seed, renderer: r.renderer, turn };
}

/** Whether `meta` is exactly metaOf(...) (same keys, same order, same values). */
export function isDerivedMeta(
  meta: unknown,
  r: Pick<CaseRecord, 'suite' | 'case' | 'repeat' | 'renderer'>,
  seed: number | undefined,
  turn: unknown,
): boolean {
  if (seed === undefined || !isObject(meta) || typeof turn !== 'number') return false;
  const keys = Object.keys(meta);
  return (
    keys.length === 5 &&
    keys[0] === 'caseId' &&
    keys[1] === 'repeat' &&
    keys[2] === 'seed' &&
    keys[3] === 'renderer' &&
    keys[4] === 'turn' &&
    meta.repeat === r.repeat &&
    meta.seed === seed &&
    meta.renderer === r.renderer &&
    meta.turn === turn &&
    typeof r.suite === 'string' &&
    typeof r.case === 'string' &&
    meta.caseId === `${r.suite}/${r.case}`
  );
}

/**
 * Rule c: the messages that carry a turn's reply and tool results back to the model. A copy of the runner's
 * feedbackMessages (src/runner/feedback.ts), on purpose: this is part of the log format, and a later change to the
 * runner must not change how logs already written read (a runner that feeds back otherwise simply fails the rule's
 * check, and its messages are written out in full).
 */
export function fedBackMessages(
  protocol: Protocol,
  replyText: string,
  nativeCalls: NativeCall[],
  executed: ToolExecution[],
): Message[] {
  if (protocol === 'native') {
    return [
      { role: 'assistant', content: replyText, toolCalls: nativeCalls },
      ...executed.map(
        (x): Message => ({
          role: 'tool',
          toolCallId: x.callId,
          name: x.name,
          content: x.result,
          ...(x.isError ? { isError: true } : {}),
        }),
      ),
    ];
  }
  const blocks = executed.map(
    (x) => `<tool_result name="${escapeAttr(x.name)}"${x.isError ? ' error="true"' : ''}>\n${x.result}\n</tool_result>`,
  );
  return [
    { role: 'assistant', content: replyText },
    { role: 'user', content: blocks.join('\n') },
  ];
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The messages of the turn after `prev` under rule c; undefined when `prev` has not the fields it needs. */
export function continuationOf(prev: Record<string, unknown> | undefined): unknown[] | undefined {
  if (!prev || !isObject(prev.request) || !isObject(prev.response) || !Array.isArray(prev.executed)) return undefined;
  const { messages, protocol } = prev.request;
  const { text, toolCalls } = prev.response;
  if (!Array.isArray(messages) || typeof protocol !== 'string' || typeof text !== 'string') return undefined;
  if (!Array.isArray(toolCalls)) return undefined;
  return [...messages, ...fedBackMessages(protocol as Protocol, text, toolCalls, prev.executed)];
}

/** Rule s: the simulated providers' envelope around a reply (usage estimated at 4 characters a token, latency 0). */
export function simEnvelope(
  request: Record<string, unknown>,
  text: string,
  toolCalls: NativeCall[],
  toolsChars?: number,
): ModelResponse {
  const meta = (request.meta ?? {}) as Record<string, unknown>;
  const messages = (Array.isArray(request.messages) ? request.messages : []) as Message[];
  const tools = request.tools as unknown[] | undefined;
  const system = String(request.system);
  // `toolsChars`: the length of the tool list's JSON when the caller has it already (a blob's text)
  const toolChars = tools ? (toolsChars ?? JSON.stringify(tools).length) : 0;
  const inChars = system.length + messages.reduce((n, m) => n + m.content.length, 0) + toolChars;
  const outChars = text.length + toolCalls.reduce((n, c) => n + c.name.length + String(c.arguments).length, 0);
  return {
    text,
    toolCalls,
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    usage: { input: Math.ceil(inChars / 4), output: Math.ceil(outChars / 4) },
    latencyMs: 0,
    raw: {
      request: {
        caseId: meta.caseId,
        turn: meta.turn,
        repeat: meta.repeat,
        seed: meta.seed,
        protocol: request.protocol,
        messages: messages.length,
        tools: tools?.length ?? 0,
        systemChars: system.length,
      },
      response: { text, toolCalls },
    },
  };
}

const ENVELOPE_KEYS = ['text', 'toolCalls', 'finishReason', 'usage', 'latencyMs', 'raw'];

/** Whether `response` is exactly simEnvelope(request, its text, its calls), compared as the JSON a log holds. */
export function isSimEnvelope(
  response: Turn['response'],
  request: Record<string, unknown>,
  toolsChars?: number,
): boolean {
  const keys = Object.keys(response);
  if (keys.length !== ENVELOPE_KEYS.length || keys.some((k, i) => k !== ENVELOPE_KEYS[i])) return false;
  if (typeof response.text !== 'string' || !Array.isArray(response.toolCalls)) return false;
  if (typeof request.system !== 'string' || !Array.isArray(request.messages)) return false;
  if (!request.messages.every((m) => isObject(m) && typeof m.content === 'string')) return false;
  if (!response.toolCalls.every((c) => isObject(c) && typeof c.name === 'string')) return false;
  try {
    return (
      JSON.stringify(simEnvelope(request, response.text, response.toolCalls, toolsChars)) === JSON.stringify(response)
    );
  } catch {
    return false; // a value JSON.stringify cannot write (nested too deep): the reply is written whole
  }
}

/** Rule u: the usage of a case, summed over its turns as the runner sums it. */
export function usageOf(turns: readonly unknown[]): CaseRecord['usage'] {
  const usage: CaseRecord['usage'] = { input: 0, output: 0, cached: 0 };
  for (const t of turns) {
    const u = (t as Turn).response?.usage;
    usage.input += u?.input ?? 0;
    usage.output += u?.output ?? 0;
    usage.cached = (usage.cached ?? 0) + (u?.cached ?? 0);
    if (u?.cacheWrite !== undefined) usage.cacheWrite = (usage.cacheWrite ?? 0) + u.cacheWrite;
  }
  return usage;
}

/**
 * Whether the record's usage is exactly usageOf(its turns), as JSON (same keys in the same order, same numbers).
 * Summed here without making the object: the writer asks for every record.
 */
export function isDerivedUsage(usage: unknown, turns: readonly Turn[]): boolean {
  if (!isObject(usage)) return false;
  let input = 0;
  let output = 0;
  let cached = 0;
  let cacheWrite: number | undefined;
  for (const t of turns) {
    const u = isObject(t) && isObject(t.response) ? t.response.usage : undefined;
    if (u === undefined) continue;
    if (!isObject(u)) return false;
    input += (u.input as number) ?? 0;
    output += (u.output as number) ?? 0;
    cached += (u.cached as number) ?? 0;
    if (u.cacheWrite !== undefined) cacheWrite = (cacheWrite ?? 0) + (u.cacheWrite as number);
  }
  let n = 0;
  for (const k in usage) {
    const v = usage[k];
    const expected =
      n === 0
        ? 'input'
        : n === 1
          ? 'output'
          : n === 2
            ? 'cached'
            : n === 3 && cacheWrite !== undefined
              ? 'cacheWrite'
              : '';
    // a number JSON writes as null (NaN, Infinity) is never left out
    if (k !== expected || typeof v !== 'number' || !Number.isFinite(v)) return false;
    if (v !== (n === 0 ? input : n === 1 ? output : n === 2 ? cached : cacheWrite)) return false;
    n++;
  }
  return n === (cacheWrite === undefined ? 3 : 4);
}

/** Rule f: the text of the last reply. */
export function finalTextOf(turns: readonly unknown[]): string | undefined {
  const last = turns.at(-1);
  const text = isObject(last) && isObject(last.response) ? last.response.text : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** A grade's JSON when it is one worth storing as a blob (an object of a modest size). */
export function gradeText(grade: Grade): string | undefined {
  if (!isObject(grade)) return undefined;
  try {
    const text = JSON.stringify(grade);
    return text.length <= MAX_GRADE_BLOB_CHARS ? text : undefined;
  } catch {
    return undefined; // nested too deep for JSON.stringify: written inline, by the writer's own JSON writer
  }
}

/** A grade longer than this stays inline: grade blobs stay few and small, so a reader's memory stays bounded. */
const MAX_GRADE_BLOB_CHARS = 2048;
