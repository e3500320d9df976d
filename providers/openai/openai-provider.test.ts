import { afterEach, describe, expect, it } from 'vitest';
import { scriptedResponder, startLlmMock } from '../../mock-servers/llm/index.js';
import type { LlmMockHandle } from '../../mock-servers/llm/types.js';
import { firstTurn, secondTurn, TOOL_RESULT, weatherResponder } from '../../tests/helpers/provider-fixtures.js';
import { openaiCompatibleFactory } from '../openai-compatible/index.js';
import { openaiFactory } from './index.js';

const env = { OPENAI_API_KEY: 'sk-test-openai-123456' };
let mock: LlmMockHandle | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe.each([false, true])('openai provider (stream: %s) through the real openai SDK', (stream) => {
  it('runs a two-turn tool loop and sends the tool result as role: tool + tool_call_id', async () => {
    mock = await startLlmMock({ responder: weatherResponder });
    const provider = openaiFactory.create('gpt-test', { baseURL: `${mock.url}/v1`, stream, maxRetries: 0 }, { env });
    const first = firstTurn({ stop: ['</tool_call>'] });
    const r1 = await provider.generate(first);
    expect(r1.toolCalls).toEqual([{ id: 'call_1_0', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(r1.finishReason).toBe('tool_calls');
    expect(r1.usage?.input).toBeGreaterThan(0);

    const r2 = await provider.generate(secondTurn(first, r1));
    expect(r2.text).toContain(TOOL_RESULT);
    expect(r2.finishReason).toBe('stop');
    expect(r2.toolCalls).toEqual([]);

    const [req1, req2] = mock.requests.map((r) => r.body as Record<string, unknown>);
    expect(req1).toMatchObject({
      model: 'gpt-test',
      stop: ['</tool_call>'],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { required: ['city'] } } }],
      messages: [{ role: 'system' }, { role: 'user', content: 'What is the weather in Paris?' }],
    });
    if (stream) expect(req1).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    else expect(req1?.stream).toBeUndefined();
    expect(req2?.messages).toEqual([
      { role: 'system', content: 'You are a weather assistant. Use the tools.' },
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1_0', content: TOOL_RESULT },
    ]);
    // raw carries the exact wire body and the API's reply
    expect(r2.raw.request).toEqual(req2);
    expect(JSON.stringify(r2.raw.response)).toContain('chatcmpl-2');
  });
});

describe('openai-compatible provider', () => {
  it('talks to any baseURL, sends max_tokens, and needs no key', async () => {
    mock = await startLlmMock({ responder: scriptedResponder([{ text: 'hello from a local server' }]) });
    const provider = openaiCompatibleFactory.create(
      'qwen2.5:7b',
      { baseURL: `${mock.url}/v1`, maxTokens: 64, temperature: 0 },
      { env: {} },
    );
    expect(provider.kind).toBe('openai-compatible');
    const r = await provider.generate(firstTurn({ tools: undefined, protocol: 'xml-tags' }));
    expect(r.text).toBe('hello from a local server');
    expect(mock.requests[0]?.body).toMatchObject({ model: 'qwen2.5:7b', max_tokens: 64, temperature: 0 });
    expect(mock.requests[0]?.body).not.toHaveProperty('tools');
  });

  it('requires baseURL and reads the key only from apiKeyEnv', () => {
    expect(() => openaiCompatibleFactory.create('m', {}, { env })).toThrow(/baseURL is required/);
    expect(() =>
      openaiCompatibleFactory.create('m', { baseURL: 'http://127.0.0.1:1/v1', apiKeyEnv: 'ROUTER_KEY' }, { env }),
    ).toThrow(expect.objectContaining({ code: 'PROVIDER_AUTH', message: expect.stringContaining('ROUTER_KEY') }));
  });
});

describe('openai factory', () => {
  it('rejects unknown options and a missing key with typed errors', () => {
    expect(() => openaiFactory.create('m', { temprature: 1 }, { env })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining("'temprature'") }),
    );
    expect(() => openaiFactory.create('m', {}, { env: {} })).toThrow(
      expect.objectContaining({ code: 'PROVIDER_AUTH', message: expect.stringContaining('OPENAI_API_KEY') }),
    );
  });

  it('maps toolChoice to the OpenAI shape', async () => {
    mock = await startLlmMock({ responder: weatherResponder });
    const provider = openaiFactory.create(
      'm',
      { baseURL: `${mock.url}/v1`, toolChoice: { name: 'get_weather' }, maxTokens: 10 },
      { env },
    );
    await provider.generate(firstTurn());
    expect(mock.requests[0]?.body).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      max_completion_tokens: 10,
    });
  });
});
