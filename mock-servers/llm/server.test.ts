import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, it } from 'vitest';
import type { Provider } from '../../src/contracts/provider.js';
import { echoResponder, providerResponder, scriptedResponder } from './responders.js';
import { serveLlm } from './serve.js';
import { startLlmMock } from './server.js';
import type { LlmMockHandle, NeutralRequest } from './types.js';

let mock: LlmMockHandle | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${mock?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const toolReply = { text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] };

describe('LLM wire mock: stream framing', () => {
  it('OpenAI SSE: deltas, finish chunk, usage chunk when asked, then data: [DONE]', async () => {
    mock = await startLlmMock({ responder: scriptedResponder([toolReply]) });
    const res = await post('/v1/chat/completions', {
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await res.text()).split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.replace(/^data: /, '')));
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
    expect(chunks.at(-2).choices[0]).toMatchObject({ finish_reason: 'tool_calls' });
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta?.tool_calls ?? [])
      .map((t: { function?: { arguments?: string } }) => t.function?.arguments ?? '')
      .join('');
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
  });

  it('Anthropic SSE: the named event sequence with text_delta and input_json_delta', async () => {
    mock = await startLlmMock({ responder: scriptedResponder([toolReply]) });
    const res = await post('/v1/messages', { model: 'm', max_tokens: 10, stream: true, messages: [] });
    const events = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((f) => /^event: (\S+)/.exec(f)?.[1]);
    expect(events).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('Ollama NDJSON: streams when `stream` is absent and ends with done: true', async () => {
    mock = await startLlmMock({ responder: scriptedResponder([toolReply]) });
    const res = await post('/api/chat', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: 'stop' });
    expect(lines.slice(0, -1).every((l) => l.done === false)).toBe(true);
    expect(lines.some((l) => l.message.tool_calls?.[0]?.function.arguments.city === 'Paris')).toBe(true);
  });
});

describe('LLM wire mock: OpenAI Responses API', () => {
  const reply = { ...toolReply, usage: { input: 30, output: 9, cached: 12 } };
  const client = () => new OpenAI({ apiKey: 'k', baseURL: `${mock?.url}/v1`, maxRetries: 0 });
  const request = { model: 'm', instructions: 'be brief', input: 'weather in Paris?' };
  const expectedOutput = (n: number) => [
    {
      type: 'message',
      id: `msg_${n}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Let me check.', annotations: [] }],
    },
    {
      type: 'function_call',
      id: `fc_${n}_0`,
      call_id: `call_${n}_0`,
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      status: 'completed',
    },
  ];

  it('a JSON reply parses with the real SDK: message + function_call items and usage with cached tokens', async () => {
    mock = await startLlmMock({ responder: scriptedResponder([reply]) });
    const response = await client().responses.create(request);
    expect(response).toMatchObject({ id: 'resp_1', object: 'response', status: 'completed', model: 'm' });
    expect(response.output).toEqual(expectedOutput(1));
    expect(response.output_text).toBe('Let me check.'); // added by the SDK from the message items
    expect(response.usage).toEqual({
      input_tokens: 30,
      output_tokens: 9,
      total_tokens: 39,
      input_tokens_details: { cached_tokens: 12 },
      output_tokens_details: { reasoning_tokens: 0 },
    });
    expect(mock.requests[0]?.neutral).toMatchObject({
      api: 'openai-responses',
      system: 'be brief',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      stream: false,
    });
  });

  it('an SSE reply is the named event sequence, and the SDK stream helper accumulates it to the same response', async () => {
    mock = await startLlmMock({ responder: scriptedResponder([reply, reply]) });
    const events: ResponseStreamEvent[] = [];
    for await (const event of await client().responses.create({ ...request, stream: true })) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const final = events.at(-1);
    expect(final?.type === 'response.completed' && final.response.output).toEqual(expectedOutput(1));
    // The SDK's own accumulator is strict about item/content indices: it must rebuild the same output.
    const accumulated = await client().responses.stream(request).finalResponse();
    expect(accumulated.output).toMatchObject(expectedOutput(2)); // plus the helper's `parsed` fields
    expect(accumulated.output_text).toBe('Let me check.');
    expect(mock.requests[1]?.neutral?.stream).toBe(true);
  });

  it('reads function_call / function_call_output items back into one assistant turn and its tool result', async () => {
    mock = await startLlmMock({ responder: echoResponder });
    const res = await post('/responses', {
      model: 'm',
      input: [
        { role: 'developer', content: 'sys' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
        { role: 'assistant', content: 'Let me check.' },
        { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{"q":1}' },
        { type: 'function_call_output', call_id: 'c1', output: 'found it' },
      ],
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }, { type: 'web_search' }],
    });
    expect(res.status).toBe(200);
    expect(mock.requests[0]?.neutral).toMatchObject({
      system: 'sys',
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'Let me check.',
          toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"q":1}' }],
        },
        { role: 'tool', toolCallId: 'c1', name: 'lookup', content: 'found it' },
      ],
      tools: [{ name: 'lookup', description: '', parameters: { type: 'object' } }],
    });
    expect(await res.json()).toMatchObject({ output: [{ content: [{ text: 'The tool lookup returned: found it' }] }] });
  });
});

describe('LLM wire mock: faults, auth, recording', () => {
  it('applies path faults in order, records every request, and answers errors in the API format', async () => {
    mock = await startLlmMock({
      responder: echoResponder,
      faults: { byPath: { '/v1/messages': [{ status: 529 }, { status: 429, retryAfter: '3' }] } },
    });
    const body = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hello' }] };
    const a = await post('/v1/messages', body);
    const b = await post('/v1/messages', body);
    const c = await post('/v1/messages', body);
    expect(a.status).toBe(529);
    expect(await a.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(b.status).toBe(429);
    expect(b.headers.get('retry-after')).toBe('3');
    expect(await c.json()).toMatchObject({ content: [{ type: 'text', text: 'echo: hello' }] });
    expect(mock.requests.map((r) => r.requestNumber)).toEqual([1, 2, 3]);
    expect(mock.requests[2]?.neutral).toMatchObject({
      api: 'anthropic',
      messages: [{ role: 'user', content: 'hello' }],
    });
  });

  it('checks the key when configured, 404s unknown routes, 500s when the script runs out', async () => {
    mock = await startLlmMock({ responder: scriptedResponder([]), apiKey: 'k-123456' });
    const body = { model: 'm', messages: [] };
    expect((await post('/v1/chat/completions', body)).status).toBe(401);
    expect((await post('/v1/embeddings', body)).status).toBe(404);
    const exhausted = await post('/v1/chat/completions', body, { authorization: 'Bearer k-123456' });
    expect(exhausted.status).toBe(500);
    expect(await exhausted.json()).toMatchObject({ error: { message: expect.stringContaining('script exhausted') } });
  });

  it('a Provider (e.g. a simulated persona) plugs in as a responder', async () => {
    const seen: string[] = [];
    const persona: Provider = {
      id: 'sim:test',
      kind: 'sim',
      simulated: true,
      async generate(request) {
        seen.push(`${request.protocol}:${request.tools?.map((t) => t.name).join(',')}`);
        return {
          text: '',
          toolCalls: [{ id: 'x', name: 'lookup', arguments: '{"q":"toolgauge"}' }],
          finishReason: 'tool_calls',
          latencyMs: 0,
          raw: { request: null, response: null },
        };
      },
    };
    mock = await startLlmMock({ responder: providerResponder(persona) });
    const res = await post('/api/chat', {
      model: 'm',
      stream: false,
      messages: [{ role: 'user', content: 'find it' }],
      tools: [{ type: 'function', function: { name: 'lookup', description: 'd', parameters: { type: 'object' } } }],
    });
    expect(seen).toEqual(['native:lookup']);
    expect(await res.json()).toMatchObject({
      message: { tool_calls: [{ function: { name: 'lookup', arguments: { q: 'toolgauge' } } }] },
      done: true,
    });
  });

  it('serveLlm starts the echo mock and prints where each API lives', async () => {
    const lines: string[] = [];
    mock = await serveLlm({ port: 0, log: (l) => lines.push(l) });
    expect(lines.join('\n')).toContain(`${mock.url}/v1/chat/completions`);
    const res = await post('/v1/chat/completions', {
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'read_data_from_excel',
            parameters: { type: 'object', properties: { filepath: { type: 'string' } }, required: ['filepath'] },
          },
        },
      ],
    });
    const json = (await res.json()) as {
      choices: { message: { tool_calls: { function: { arguments: string } }[] } }[];
    };
    expect(JSON.parse(json.choices[0]!.message.tool_calls[0]!.function.arguments)).toEqual({ filepath: 'example' });
    const neutral = mock.requests[0]?.neutral as NeutralRequest;
    expect(neutral.tools[0]?.name).toBe('read_data_from_excel');
  });
});
