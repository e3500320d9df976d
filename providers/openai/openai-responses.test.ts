import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedResponder, startLlmMock } from '../../mock-servers/llm/index.js';
import type { FaultPlan, LlmMockHandle, Responder } from '../../mock-servers/llm/types.js';
import { ToolgaugeError } from '../../src/errors.js';
import {
  firstTurn,
  secondTurn,
  TOOL_RESULT,
  weatherResponder,
  weatherTool,
} from '../../tests/helpers/provider-fixtures.js';
import { anthropicFactory } from '../anthropic/index.js';
import { ollamaFactory } from '../ollama/index.js';
import { openaiCompatibleFactory } from '../openai-compatible/index.js';
import { collectOpenAIResponse } from './collect-openai-responses.js';
import { fromOpenAIResponse } from './from-openai-responses.js';
import { openaiFactory } from './index.js';

const env = { OPENAI_API_KEY: 'sk-test-openai-123456' };
let mock: LlmMockHandle | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const USAGE = { input: 40, output: 7, cached: 16 };
/** weatherResponder with fixed usage, so cached tokens travel the wire. */
const withUsage: Responder = async (request, ctx) => ({ ...(await weatherResponder(request, ctx)), usage: USAGE });

async function start(faults: FaultPlan = {}, responder: Responder = withUsage) {
  mock = await startLlmMock({ responder, faults });
  return mock;
}

async function errorOf(promise: Promise<unknown>): Promise<ToolgaugeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolgaugeError);
  return error as ToolgaugeError;
}

describe.each([false, true])('openai provider, api: responses (stream: %s), through the real openai SDK', (stream) => {
  it('runs a two-turn tool loop, feeding the result back as function_call_output with the same call_id', async () => {
    const m = await start();
    const provider = openaiFactory.create(
      'gpt-test',
      { baseURL: `${m.url}/v1`, api: 'responses', stream, maxRetries: 0 },
      { env },
    );
    const first = firstTurn({ stop: ['</tool_call>'] });
    const r1 = await provider.generate(first);
    expect(r1.text).toBe('');
    expect(r1.toolCalls).toEqual([{ id: 'call_1_0', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(r1.finishReason).toBe('tool_calls');
    expect(r1.usage).toEqual({ input: 40, output: 7, cached: 16 });

    const r2 = await provider.generate(secondTurn(first, r1));
    expect(r2.text).toBe(`The weather: ${TOOL_RESULT}.`);
    expect(r2.toolCalls).toEqual([]);
    expect(r2.finishReason).toBe('stop');
    expect(r2.usage).toEqual(USAGE);

    expect(m.requests.map((r) => [r.path, r.api])).toEqual([
      ['/v1/responses', 'openai-responses'],
      ['/v1/responses', 'openai-responses'],
    ]);
    const [req1, req2] = m.requests.map((r) => r.body as Record<string, unknown>);
    // Exact body: instructions, input items, tools, store: false, and no stop sequences (the API has none).
    expect(req1).toEqual({
      model: 'gpt-test',
      instructions: 'You are a weather assistant. Use the tools.',
      input: [{ role: 'user', content: 'What is the weather in Paris?' }],
      store: false,
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather for a city.',
          parameters: weatherTool.parameters,
          strict: false,
        },
      ],
      ...(stream ? { stream: true } : {}),
    });
    expect(req2?.input).toEqual([
      { role: 'user', content: 'What is the weather in Paris?' },
      { type: 'function_call', call_id: 'call_1_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1_0', output: TOOL_RESULT },
    ]);
    // The mock read the Responses items back into a tool loop.
    expect(m.requests[1]?.neutral?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'call_1_0',
      name: 'get_weather',
      content: TOOL_RESULT,
    });
    // raw carries the exact wire body and the API's reply.
    expect(r2.raw.request).toEqual(req2);
    expect(r2.raw.response).toMatchObject({ id: 'resp_2', object: 'response', status: 'completed' });
  });
});

describe('openai provider, api: responses: options and faults', () => {
  it('maps toolChoice, maxTokens and temperature; openai-compatible talks to /v1/responses too', async () => {
    const m = await start();
    const options = { baseURL: `${m.url}/v1`, api: 'responses', toolChoice: { name: 'get_weather' }, maxTokens: 10 };
    await openaiFactory.create('m', { ...options, temperature: 0.5 }, { env }).generate(firstTurn());
    expect(m.requests[0]?.body).toMatchObject({
      tool_choice: { type: 'function', name: 'get_weather' },
      max_output_tokens: 10,
      temperature: 0.5,
    });
    await openaiCompatibleFactory
      .create('m', { ...options, toolChoice: 'required' }, { env: {} })
      .generate(firstTurn());
    expect(m.requests[1]?.path).toBe('/v1/responses');
    expect(m.requests[1]?.body).toMatchObject({ tool_choice: 'required', max_output_tokens: 10 });
  });

  it('a 429 with Retry-After is retried exactly once; a truncated stream is PROVIDER_NETWORK', async () => {
    const m = await start({ byRequest: { 1: { status: 429, retryAfter: '0.2' }, 3: { truncateAfterFrames: 2 } } });
    const base = { baseURL: `${m.url}/v1`, api: 'responses', stream: true };
    const retrying = openaiFactory.create('m', { ...base, maxRetries: 3, retryBaseMs: 1 }, { env });
    expect((await retrying.generate(firstTurn())).toolCalls).toHaveLength(1);
    expect(m.requests).toHaveLength(2);
    expect((m.requests[1]?.at ?? 0) - (m.requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(200);
    const noRetry = openaiFactory.create('m', { ...base, maxRetries: 0 }, { env });
    expect((await errorOf(noRetry.generate(firstTurn()))).code).toBe('PROVIDER_NETWORK');
    expect(m.requests).toHaveLength(3);
  });

  it('anthropic and ollama reject api: responses with CONFIG_INVALID', () => {
    for (const [factory, id] of [
      [anthropicFactory, 'anthropic:m'],
      [ollamaFactory, 'ollama:m'],
    ] as const) {
      expect(() => factory.create('m', { api: 'responses' }, { env: { ANTHROPIC_API_KEY: 'k' } })).toThrow(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          message: expect.stringMatching(new RegExp(`${id}.*openai providers only`)),
        }),
      );
    }
    expect(() => openaiFactory.create('m', { api: 'assistants' }, { env })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('api') }),
    );
  });

  it('a text reply over the wire keeps its text and finishes with stop', async () => {
    const m = await start({}, scriptedResponder([{ text: 'plain answer', usage: { input: 3, output: 2 } }]));
    const provider = openaiFactory.create('m', { baseURL: `${m.url}/v1`, api: 'responses' }, { env });
    const r = await provider.generate(firstTurn({ system: '', tools: undefined, protocol: 'xml-tags' }));
    expect(r).toMatchObject({ text: 'plain answer', toolCalls: [], finishReason: 'stop' });
    expect(r.usage).toEqual({ input: 3, output: 2, cached: 0 });
    expect(m.requests[0]?.body).not.toHaveProperty('instructions');
    expect(m.requests[0]?.body).not.toHaveProperty('tools');
  });
});

function response(extra: Partial<Response>): Response {
  return { id: 'resp_x', object: 'response', status: 'completed', output: [], ...extra } as Response;
}

async function* events(list: object[]): AsyncGenerator<ResponseStreamEvent> {
  yield* list as ResponseStreamEvent[];
}

describe('Responses API replies → neutral results', () => {
  it('maps incomplete replies to length / content_filter and rejects failed or output-less ones', () => {
    const incomplete = (reason: 'max_output_tokens' | 'content_filter') =>
      fromOpenAIResponse('openai:t', response({ status: 'incomplete', incomplete_details: { reason } })).finishReason;
    expect(incomplete('max_output_tokens')).toBe('length');
    expect(incomplete('content_filter')).toBe('content_filter');
    const failed = response({ status: 'failed', error: { code: 'server_error', message: 'model melted' } });
    expect(() => fromOpenAIResponse('openai:t', failed)).toThrow(
      expect.objectContaining({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('model melted') }),
    );
    expect(() => fromOpenAIResponse('openai:t', { id: 'r' } as Response)).toThrow(
      expect.objectContaining({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('output') }),
    );
  });

  it('a stream folds to its response.completed; failed, error and unfinished streams are bad responses', async () => {
    const done = response({ id: 'resp_done' });
    const folded = await collectOpenAIResponse(
      'openai:t',
      events([
        { type: 'response.created', response: response({ status: 'in_progress' }) },
        { type: 'response.output_text.delta', delta: 'x' },
        { type: 'response.completed', response: done },
      ]),
    );
    expect(folded).toBe(done);
    const failed = {
      type: 'response.failed',
      response: response({ error: { code: 'server_error', message: 'went wrong' } }),
    };
    for (const [list, text] of [
      [[failed], 'went wrong'],
      [[{ type: 'error', message: 'overloaded', code: null, param: null }], 'overloaded'],
      [[{ type: 'response.created', response: response({ status: 'in_progress' }) }], 'response.completed'],
    ] as const) {
      const error = await errorOf(collectOpenAIResponse('openai:t', events([...list])));
      expect(error.code).toBe('PROVIDER_BAD_RESPONSE');
      expect(error.message).toContain(text);
    }
  });
});
