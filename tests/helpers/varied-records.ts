import { toResponse } from '../../providers/simulated/reply-writer.js';
import type { Grade } from '../../src/contracts/grade.js';
import type { Message, ModelRequest, ModelResponse, NativeCall, Protocol } from '../../src/contracts/model.js';
import type { ToolExecution, Transcript, Turn } from '../../src/contracts/transcript.js';
import type { CaseRecord, RunHeader } from '../../src/run-log/schema.js';
import { feedbackMessages } from '../../src/runner/feedback.js';
import { seededRandom } from '../../src/util/rng.js';

/*
 * Case records of every shape a run log holds, made the way the runner makes them (the simulated providers'
 * envelope, the runner's feedback messages) and then varied: simulated and real providers (raw wire bodies),
 * recorded transcripts, errors, 0-3 turns, repeats, native and text protocols, tool results and errors, and fields
 * that depart from what the packing rules derive (another seed, a missing meta, a key of its own, messages edited).
 */

export const SEED = 7;

export function variedHeader(seed: number | undefined = SEED): RunHeader {
  return {
    type: 'header',
    format: 'toolgauge.run/2',
    runId: 'varied',
    toolgaugeVersion: '0.1.0',
    startedAt: '2026-01-01T00:00:00.000Z',
    gitCommit: null,
    configFile: 'toolgauge.yaml',
    config: seed === undefined ? { suites: ['s.yaml'] } : { suites: ['s.yaml'], seed },
    strategies: [{ label: 'full-details', name: 'full-details', options: {} }],
    providers: [{ label: 'sim:oracle', id: 'sim:oracle', simulated: true }],
    suites: [{ name: 'varied', file: 's.yaml', cases: 1 }],
    plannedCases: 1,
  };
}

const SYSTEM = `You are a helpful assistant.\n\n# Tools\n\n${'- get_weather(city): current weather\n'.repeat(3)}`;
/** A system prompt long enough for rule d: the raw wire request's copy of it is the blob's text. */
const LONG_SYSTEM = `You are a careful assistant.\n\n# Tools\n\n${'- get_weather(city): current weather in a city, in °C\n'.repeat(30)}`;
/** A reply or tool result long enough for rule d (its copies in the raw wire bodies are written once). */
const long = (what: string, i: number, n: number) => `${what} ${i}.${n}: ${'it is sunny and warm; '.repeat(60)}`;
const TOOLS = [
  {
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    target: { server: 'inline', tool: 'get_weather' },
  },
  {
    name: 'search_docs',
    description: 'Search the documentation. Naïve “quotes” and emoji 😀 survive.',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
    target: { server: 'docs', tool: 'search' },
  },
];

type Kind = 'sim' | 'sim-stop' | 'real' | 'recorded';

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

function grade(rand: () => number, grader: string): Grade {
  const pass = rand() < 0.7;
  const g: Grade = { grader, pass, score: pass ? 1 : 0, reason: pass ? `${grader} passed` : `${grader} failed` };
  // most grades repeat from case to case (they become blobs); some carry per-case data
  if (rand() < 0.3) g.data = { detail: Math.floor(rand() * 1000), list: [], nested: { v: null } };
  else if (rand() < 0.5) g.data = { level: 'strict', calls: 1 };
  return g;
}

function realRaw(request: Omit<ModelRequest, 'oracle'>, text: string, calls: NativeCall[], rand: () => number) {
  return {
    request: {
      model: 'gpt-4o-2024-08-06',
      messages: [{ role: 'system', content: request.system }, ...request.messages],
      tools: request.tools?.map((t) => ({ type: 'function', function: { name: t.name, parameters: t.parameters } })),
      temperature: 0,
    },
    response: {
      id: `chatcmpl-${Math.floor(rand() * 1e9)}`,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: text, tool_calls: calls }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 120, completion_tokens: 9 },
    },
  };
}

/** One record; `i` makes it differ from the others. */
export function variedRecord(i: number, seed: number = SEED): CaseRecord {
  const rand = seededRandom('varied-records', i);
  const kind: Kind = pick(rand, ['sim', 'sim', 'sim-stop', 'real', 'recorded'] as const);
  const protocol: Protocol = kind === 'recorded' ? 'python-call' : pick(rand, ['xml-tags', 'native', 'json'] as const);
  const suite = 'varied';
  const caseId = `case-${i % 7}`;
  const renderer = pick(rand, ['full-details', 'names-only']);
  const provider = kind === 'real' ? 'openai:gpt-4o' : kind === 'recorded' ? 'model-a' : 'sim:oracle';
  const simulated = kind === 'sim' || kind === 'sim-stop';
  const repeat = Math.floor(rand() * 3);
  const turnsWanted = rand() < 0.1 ? 0 : 1 + Math.floor(rand() * 3);
  // long replies and results (a real provider's wire bodies repeat them), on some records
  const longTexts = kind === 'real' && rand() < 0.4;
  const first: Omit<ModelRequest, 'oracle'> = {
    system: kind === 'recorded' ? '' : longTexts && rand() < 0.5 ? LONG_SYSTEM : SYSTEM,
    messages: [{ role: 'user', content: `What is the weather in Paris? (${i})` }],
    ...(protocol === 'native' ? { tools: TOOLS } : {}),
    protocol,
    ...(rand() < 0.2 ? { stop: ['</tool_call>'] } : {}),
    ...(rand() < 0.2 ? { cacheHints: { stablePrefixChars: 40 } } : {}),
    meta: {
      caseId: `${suite}/${caseId}`,
      repeat: kind === 'recorded' ? 0 : repeat,
      seed: kind === 'recorded' ? 0 : seed,
      renderer,
      turn: 0,
    },
  };
  const turns: Turn[] = [];
  let messages: Message[] = [...first.messages];
  let callNo = 0;
  for (let index = 0; index < turnsWanted; index++) {
    const request: Omit<ModelRequest, 'oracle'> =
      kind === 'recorded'
        ? { system: '', messages: [], protocol, meta: { ...first.meta, turn: index } }
        : { ...first, messages: [...messages], meta: { ...first.meta, turn: index } };
    const last = index === turnsWanted - 1;
    const calls: NativeCall[] = [];
    let text = last ? (longTexts ? long('answer', i, index) : `It is sunny in Paris (${i}).`) : '';
    if (!last && longTexts && rand() < 0.5) text = long('thinking', i, index);
    if (!last) {
      const n = 1 + Math.floor(rand() * 2);
      for (let c = 0; c < n; c++) {
        callNo++;
        const name = pick(rand, ['get_weather', 'search_docs', 'unknown_tool']);
        const args = JSON.stringify(name === 'search_docs' ? { q: `weather ${i}` } : { city: 'Paris' });
        if (protocol === 'native') calls.push({ id: `call_${callNo}`, name, arguments: args });
        else text += `<tool_call>{"name": "${name}", "arguments": ${args}}</tool_call>\n`;
      }
    }
    let response: ModelResponse;
    if (simulated) {
      response = toResponse(request as ModelRequest, { text, toolCalls: calls }, { honorStop: kind === 'sim-stop' });
    } else if (kind === 'real') {
      response = {
        text,
        toolCalls: calls,
        finishReason: calls.length > 0 ? 'tool_calls' : 'stop',
        usage: {
          input: 100 + i,
          output: 9,
          cached: rand() < 0.5 ? 64 : 0,
          ...(rand() < 0.3 ? { cacheWrite: 12 } : {}),
        },
        latencyMs: 200 + Math.floor(rand() * 900),
        raw: realRaw(request, text, calls, rand),
      };
    } else {
      response = {
        text,
        toolCalls: calls,
        finishReason: 'recorded',
        latencyMs: 0,
        raw: { request: undefined, response: undefined },
      };
    }
    const parsed =
      calls.length > 0 || text.includes('<tool_call>') ? [{ name: 'get_weather', args: { city: 'Paris' } }] : [];
    const executed: ToolExecution[] = last
      ? []
      : (protocol === 'native' ? calls.map((c) => c.id) : parsed.map((_, k) => `call_${index + 1}_${k + 1}`)).map(
          (callId, k) => ({
            callId,
            name: calls[k]?.name ?? 'get_weather',
            server: kind === 'recorded' ? 'recorded' : 'inline',
            tool: calls[k]?.name ?? 'get_weather',
            args: k === 0 && rand() < 0.2 ? undefined : { city: 'Paris' },
            result: longTexts
              ? long('result', i, index * 10 + k)
              : rand() < 0.2
                ? 'Unknown tool: unknown_tool. Use one of the tools listed in the instructions.'
                : 'Sunny, 21 °C',
            isError: rand() < 0.2,
            durationMs: rand() * 3,
          }),
        );
    turns.push({
      index,
      request,
      response,
      parse: {
        calls: parsed.map((c) => ({ ...c, rawArgs: '{"city":"Paris"}', via: protocol, repaired: false })),
        diagnostics: [],
      } as unknown as Turn['parse'],
      executed,
    });
    messages = [...messages, ...feedbackMessages(protocol, response.text, response.toolCalls, executed)];
  }
  const errored = turnsWanted === 0 || rand() < 0.1;
  const transcript: Transcript = {
    turns,
    finalText: errored ? '' : (turns.at(-1)?.response.text ?? ''),
    stopReason: errored ? 'error' : turnsWanted === 3 ? 'max-turns' : 'answered',
  };
  const usage: CaseRecord['usage'] = { input: 0, output: 0, cached: 0 };
  for (const t of turns) {
    usage.input += t.response.usage?.input ?? 0;
    usage.output += t.response.usage?.output ?? 0;
    usage.cached = (usage.cached ?? 0) + (t.response.usage?.cached ?? 0);
    if (t.response.usage?.cacheWrite !== undefined)
      usage.cacheWrite = (usage.cacheWrite ?? 0) + t.response.usage.cacheWrite;
  }
  const record: CaseRecord = {
    type: 'case',
    key: `${suite}/${caseId}|${renderer}|${provider}|${repeat}`,
    suite,
    case: caseId,
    renderer,
    provider,
    simulated,
    repeat,
    protocol,
    catalogHash: 'af6b8ecfd6ff6690938539bc39657951ead2787fd212f2b75d07e64ee85f834c',
    promptTokens: 191,
    transcript,
    grades: errored ? [] : ['parseable', 'correct-arguments', 'continued-after-results'].map((g) => grade(rand, g)),
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: Math.floor(rand() * 100),
    usage,
    ...(errored ? { error: { code: 'PROVIDER_HTTP', message: 'HTTP 500 from the provider' } } : {}),
  };
  return vary(record, rand);
}

/** Departures from what the rules derive, one at a time, on a few records. */
function vary(record: CaseRecord, rand: () => number): CaseRecord {
  const r = rand();
  const turn = record.transcript.turns[Math.floor(rand() * record.transcript.turns.length)];
  if (r < 0.04) record.key = `${record.key}|shard`;
  else if (r < 0.08 && turn) turn.request.meta = { ...turn.request.meta, seed: 99 };
  else if (r < 0.11 && turn) delete (turn.request as Partial<Turn['request']>).meta;
  else if (r < 0.14 && turn && turn.index > 0)
    turn.request.messages = [...turn.request.messages.slice(0, -1), { role: 'user', content: 'edited' }];
  else if (r < 0.17 && turn) delete turn.response.usage;
  else if (r < 0.2) record.usage = { input: 1, output: 2 };
  else if (r < 0.23) record.transcript.finalText = 'something else';
  else if (r < 0.26 && turn) turn.request.protocol = 'json';
  else if (r < 0.29 && turn) (turn.response.raw as { response: unknown }).response = { edited: true };
  else if (r < 0.31 && turn) turn.response.latencyMs = 1;
  else if (r < 0.35 && turn && turn.index > 0 && record.provider === 'openai:gpt-4o') {
    // a raw request whose history differs from the previous turn's (rule w declined for it)
    const raw = turn.response.raw as { request: { messages: unknown[] } };
    raw.request = {
      ...raw.request,
      messages: [{ role: 'system', content: 'edited' }, ...raw.request.messages.slice(1)],
    };
  }
  return record;
}

export function variedRecords(n: number, seed: number = SEED): CaseRecord[] {
  return Array.from({ length: n }, (_, i) => variedRecord(i, seed));
}

/**
 * A value nested `levels` deep (objects, or arrays when `arrays`), built without recursion, holding `text` near its
 * top (where packing rule d searches) and at its bottom (far deeper than it searches).
 */
export function deepValue(levels: number, text: string, arrays = false): unknown {
  let v: unknown = { bottom: text, n: levels };
  for (let d = levels; d > 0; d--)
    v = arrays ? (d === 5 ? [text, v] : [d, v]) : d === 5 ? { note: text, a: v } : { a: v };
  return arrays ? { list: v } : v;
}

/**
 * The record with each native call's arguments replaced by a value nested `levels` deep, as a provider that sends
 * arguments as objects (Ollama, Anthropic) logs it: the same value in the reply, its raw wire body, the next turn's
 * request and raw request (the calls are shared objects there, as the runner shares them), and the parse.
 */
export function deepened(record: CaseRecord, levels: number, text: string): CaseRecord {
  for (const [t, turn] of record.transcript.turns.entries())
    for (const [c, call] of turn.response.toolCalls.entries()) {
      const value = deepValue(levels, `${text} ${t}.${c}`, (t + c) % 2 === 1);
      call.arguments = value as NativeCall['arguments'];
      const parsed = turn.parse.calls[c];
      if (parsed) parsed.args = value;
    }
  return record;
}
