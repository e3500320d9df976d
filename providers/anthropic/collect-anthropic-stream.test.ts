import Anthropic from '@anthropic-ai/sdk';
import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import type {
  Message,
  MessageCreateParamsNonStreaming,
  RawMessageDeltaEvent,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { scriptedResponder, startLlmMock } from '../../mock-servers/llm/index.js';
import type { MockReply } from '../../mock-servers/llm/types.js';
import { ToolgaugeError } from '../../src/errors.js';
import { collectAnthropicMessage } from './collect-anthropic-stream.js';

// Events as the API sends them, typed loosely: `ping` and future event types are not in the SDK's union.
type WireEvent = RawMessageStreamEvent | { type: string };

const start = (usage: Record<string, unknown> = {}): WireEvent => ({
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    stop_details: null,
    container: null,
    usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
  } as unknown as Message,
});
const blockStart = (index: number, content_block: Record<string, unknown>): WireEvent =>
  ({ type: 'content_block_start', index, content_block }) as WireEvent;
const delta = (index: number, d: Record<string, unknown>): WireEvent =>
  ({ type: 'content_block_delta', index, delta: d }) as WireEvent;
const text = (index: number, t: string) => delta(index, { type: 'text_delta', text: t });
const json = (index: number, partial_json: string) => delta(index, { type: 'input_json_delta', partial_json });
const blockStop = (index: number): WireEvent => ({ type: 'content_block_stop', index });
const messageDelta = (stop_reason: string, usage: Partial<RawMessageDeltaEvent['usage']>): WireEvent =>
  ({
    type: 'message_delta',
    delta: { stop_reason, stop_sequence: null, stop_details: null, container: null },
    usage,
  }) as WireEvent;
const stop: WireEvent = { type: 'message_stop' };
const ping: WireEvent = { type: 'ping' };

async function* from(events: WireEvent[]): AsyncGenerator<RawMessageStreamEvent> {
  yield* events as RawMessageStreamEvent[];
}

const collect = (events: WireEvent[]) => collectAnthropicMessage('anthropic:t', from(events));
const plain = (value: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(value));

/**
 * The SDK helper's answer, as JSON. finalMessage() adds a top-level `parsed_output: null` (structured-output
 * support) that a non-streamed Message does not have; we check it is exactly that, then drop it.
 */
function helperJson(message: Message): Record<string, unknown> {
  const { parsed_output, ...rest } = plain(message);
  expect(parsed_output).toBeNull();
  return rest;
}

/** The same literal events through the SDK's own MessageStream, fed as the NDJSON its fromReadableStream reads. */
async function viaHelper(events: WireEvent[]): Promise<Record<string, unknown>> {
  const body = new Response(events.map((e) => `${JSON.stringify(e)}\n`).join('')).body;
  if (!body) throw new Error('no body');
  return helperJson(await MessageStream.fromReadableStream(body).finalMessage());
}

describe('collectAnthropicMessage on literal event sequences', () => {
  it('folds text and two tool_use blocks whose input is split across input_json_delta events', async () => {
    const events = [
      start(),
      ping,
      blockStart(0, { type: 'text', text: '', citations: null }),
      text(0, 'Let me '),
      text(0, 'check.'),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: {} }),
      json(1, '{"ci'),
      json(1, 'ty": "Pa'),
      json(1, 'ris"}'),
      blockStop(1),
      blockStart(2, { type: 'tool_use', id: 'toolu_b', name: 'get_time', input: {} }),
      json(2, '{"zone":'),
      json(2, ' ["UTC", 2]}'),
      blockStop(2),
      messageDelta('tool_use', { output_tokens: 42 }),
      stop,
    ];
    const message = await collect(events);
    expect(message).toMatchObject({
      id: 'msg_1',
      stop_reason: 'tool_use',
      usage: { input_tokens: 10, output_tokens: 42 },
    });
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me check.', citations: null },
      { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'toolu_b', name: 'get_time', input: { zone: ['UTC', 2] } },
    ]);
    // plain data: `input` is a value, not the helper's lazy getter, and there is no hidden JSON buffer
    const tool = message.content[1] as object;
    expect(Object.getOwnPropertyDescriptor(tool, 'input')).toMatchObject({
      value: { city: 'Paris' },
      enumerable: true,
    });
    expect(Object.getOwnPropertyNames(tool)).toEqual(['type', 'id', 'name', 'input']);
    // the events themselves are left as they came
    expect((events[0] as { message: Message }).message.content).toEqual([]);
    expect(plain(message)).toEqual(await viaHelper(events));
  });

  it('folds thinking and its signature, and ignores a delta whose block type does not match', async () => {
    const events = [
      start(),
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'The user wants ' }),
      delta(0, { type: 'thinking_delta', thinking: 'the weather.' }),
      text(0, 'not for a thinking block'),
      delta(0, { type: 'signature_delta', signature: 'sig-1' }),
      blockStop(0),
      blockStart(1, { type: 'text', text: '', citations: null }),
      json(1, '{"not": "for text"}'),
      delta(1, { type: 'signature_delta', signature: 'not for text' }),
      text(1, 'Sunny.'),
      blockStop(1),
      messageDelta('end_turn', { output_tokens: 9 }),
      stop,
    ];
    const message = await collect(events);
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'The user wants the weather.', signature: 'sig-1' },
      { type: 'text', text: 'Sunny.', citations: null },
    ]);
    expect(plain(message)).toEqual(await viaHelper(events));
  });

  it('message_delta: stop fields and output_tokens always, the other usage counters only when present', async () => {
    const events = [
      start({ input_tokens: 10, cache_read_input_tokens: 3 }),
      blockStart(0, { type: 'text', text: '', citations: null }),
      text(0, 'ok'),
      blockStop(0),
      messageDelta('max_tokens', {
        output_tokens: 5,
        input_tokens: 50,
        cache_creation_input_tokens: 4,
        cache_read_input_tokens: 7,
        server_tool_use: { web_search_requests: 1 } as never,
      }),
      // a later delta with the counters absent or null must not wipe them
      messageDelta('end_turn', { output_tokens: 8, input_tokens: null, cache_read_input_tokens: null }),
      stop,
    ];
    const message = await collect(events);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({
      input_tokens: 50,
      output_tokens: 8,
      cache_creation_input_tokens: 4,
      cache_read_input_tokens: 7,
      server_tool_use: { web_search_requests: 1 },
    });
    expect(plain(message)).toEqual(await viaHelper(events));
  });

  it('a tool block with input deltas but no text gets {}; one with no deltas keeps its start input', async () => {
    const events = [
      start(),
      blockStart(0, { type: 'tool_use', id: 'toolu_a', name: 'list', input: {} }),
      json(0, ''),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 'toolu_b', name: 'echo', input: { said: 'as started' } }),
      blockStop(1),
      messageDelta('tool_use', { output_tokens: 3 }),
      stop,
    ];
    const message = await collect(events);
    expect(message.content.map((b) => (b as { input: unknown }).input)).toEqual([{}, { said: 'as started' }]);
    expect(plain(message)).toEqual(await viaHelper(events));
  });

  it('malformed tool input is kept as the raw string, not repaired (the helper would partial-parse it)', async () => {
    const message = await collect([
      start(),
      blockStart(0, { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: {} }),
      json(0, '{"city": "Par'),
      json(0, 'is", }'),
      blockStop(0),
      messageDelta('tool_use', { output_tokens: 3 }),
      stop,
    ]);
    expect(message.content[0]).toEqual({
      type: 'tool_use',
      id: 'toolu_a',
      name: 'get_weather',
      input: '{"city": "Paris", }',
    });
  });

  it.each([
    ['no message_stop', [start(), blockStart(0, { type: 'text', text: '' }), text(0, 'half')]],
    ['no message_start', [ping, stop]],
    ['no events at all', []],
  ])('a stream with %s is PROVIDER_BAD_RESPONSE', async (_what, events) => {
    const pending = collect(events);
    await expect(pending).rejects.toBeInstanceOf(ToolgaugeError);
    await expect(pending).rejects.toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      message: 'provider anthropic:t: stream ended without a complete message (no message_stop)',
      details: { provider: 'anthropic:t' },
    });
  });

  it('a second message_start is PROVIDER_BAD_RESPONSE', async () => {
    await expect(collect([start(), start(), stop])).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE' });
  });

  it('ping and unknown event types are ignored', async () => {
    const events = [
      ping,
      start(),
      ping,
      { type: 'some_future_event', index: 0 },
      blockStart(0, { type: 'text', text: '', citations: null }),
      ping,
      text(0, 'hi'),
      blockStop(0),
      messageDelta('end_turn', { output_tokens: 1 }),
      ping,
      stop,
    ];
    const message = await collect(events);
    expect(message.content).toEqual([{ type: 'text', text: 'hi', citations: null }]);
    expect(plain(message)).toEqual(await viaHelper(events));
  });
});

const BODY: MessageCreateParamsNonStreaming = {
  model: 'claude-test',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
};

/** One request against a fresh wire mock, so message and tool ids (numbered per request) match across runs. */
async function viaMock<T>(reply: MockReply, run: (client: Anthropic) => Promise<T>): Promise<T> {
  const mock = await startLlmMock({ responder: scriptedResponder([reply]) });
  try {
    return await run(new Anthropic({ apiKey: 'sk-ant-test', authToken: null, baseURL: mock.url, maxRetries: 0 }));
  } finally {
    await mock.close();
  }
}

describe('collectAnthropicMessage equals MessageStream.finalMessage() through the real SDK and the wire mock', () => {
  it.each<[string, MockReply]>([
    ['text only', { text: 'It is sunny in Paris, 21 degrees.' }],
    ['one tool call', { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }],
    [
      'two tool calls with text',
      {
        text: 'Let me check both.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } },
          { name: 'get_time', arguments: { zone: 'Europe/Oslo', verbose: true } },
        ],
        usage: { input: 120, output: 30, cached: 100 },
      },
    ],
  ])('%s', async (_name, reply) => {
    const ours = await viaMock(reply, async (client) =>
      collectAnthropicMessage('anthropic:t', await client.messages.create({ ...BODY, stream: true })),
    );
    const helper = await viaMock(reply, (client) => client.messages.stream(BODY).finalMessage());
    expect(plain(ours)).toEqual(helperJson(helper));

    const calls = reply.toolCalls ?? [];
    expect(ours).toMatchObject({ id: 'msg_1', stop_reason: calls.length ? 'tool_use' : 'end_turn' });
    expect(ours.content).toEqual([
      ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
      ...calls.map((c, i) => ({ type: 'tool_use', id: `toolu_1_${i}`, name: c.name, input: c.arguments })),
    ]);
    if (reply.usage)
      expect(ours.usage).toMatchObject({ input_tokens: 20, output_tokens: 30, cache_read_input_tokens: 100 });
  });
});
