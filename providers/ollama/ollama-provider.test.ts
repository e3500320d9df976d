import { afterEach, describe, expect, it } from 'vitest';
import { startLlmMock } from '../../mock-servers/llm/index.js';
import type { LlmMockHandle } from '../../mock-servers/llm/types.js';
import { firstTurn, secondTurn, TOOL_RESULT, weatherResponder } from '../../tests/helpers/provider-fixtures.js';
import { ollamaFactory } from './index.js';

let mock: LlmMockHandle | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe.each([false, true])('ollama provider (stream: %s) through the real ollama client', (stream) => {
  it('runs a two-turn tool loop and sends the result as role: tool + tool_name', async () => {
    mock = await startLlmMock({ responder: weatherResponder });
    // The host comes from OLLAMA_HOST when no baseURL is given.
    const provider = ollamaFactory.create(
      'llama3.2',
      { stream, maxRetries: 0, maxTokens: 50 },
      { env: { OLLAMA_HOST: mock.url } },
    );
    const first = firstTurn({ stop: ['</tool_call>'] });
    const r1 = await provider.generate(first);
    expect(r1.toolCalls).toEqual([{ id: 'ollama-0-0', name: 'get_weather', arguments: { city: 'Paris' } }]);
    expect(r1.finishReason).toBe('tool_calls');
    expect(r1.usage?.input).toBeGreaterThan(0);

    const r2 = await provider.generate(secondTurn(first, r1));
    expect(r2.text).toContain(TOOL_RESULT);
    expect(r2.finishReason).toBe('stop');

    const [req1, req2] = mock.requests.map((r) => r.body as Record<string, unknown>);
    expect(req1).toMatchObject({
      model: 'llama3.2',
      stream,
      options: { num_predict: 50, stop: ['</tool_call>'] },
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
    });
    expect(req2?.messages).toEqual([
      { role: 'system', content: 'You are a weather assistant. Use the tools.' },
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
      },
      { role: 'tool', content: TOOL_RESULT, tool_name: 'get_weather' },
    ]);
  });
});

describe('ollama faults', () => {
  it('a stream cut before done: true is a typed network error', async () => {
    mock = await startLlmMock({
      responder: weatherResponder,
      faults: { byRequest: { 1: { truncateAfterFrames: 1 } } },
    });
    const provider = ollamaFactory.create('m', { baseURL: mock.url, stream: true, maxRetries: 0 }, { env: {} });
    await expect(provider.generate(firstTurn())).rejects.toMatchObject({ code: 'PROVIDER_NETWORK' });
  });

  it('a 429 with retry-after-ms is retried (headers reach us although ollama-js drops them)', async () => {
    mock = await startLlmMock({
      responder: weatherResponder,
      faults: { byRequest: { 1: { status: 429, retryAfterMs: 50 } } },
    });
    const provider = ollamaFactory.create('m', { baseURL: mock.url, maxRetries: 1, retryBaseMs: 0 }, { env: {} });
    const r = await provider.generate(firstTurn());
    expect(r.toolCalls).toHaveLength(1);
    expect(mock.requests).toHaveLength(2);
    expect((mock.requests[1]?.at ?? 0) - (mock.requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(50);
  });
});
