import { afterEach, describe, expect, it } from 'vitest';
import { scriptedResponder, startLlmMock } from '../../mock-servers/llm/index.js';
import type { LlmMockHandle } from '../../mock-servers/llm/types.js';
import { firstTurn, secondTurn, TOOL_RESULT, weatherResponder } from '../../tests/helpers/provider-fixtures.js';
import { anthropicFactory } from './index.js';

const env = { ANTHROPIC_API_KEY: 'sk-ant-test-123456' };
let mock: LlmMockHandle | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe.each([false, true])('anthropic provider (stream: %s) through the real @anthropic-ai/sdk', (stream) => {
  it('runs a two-turn tool loop and sends the result as a tool_result block in a user message', async () => {
    mock = await startLlmMock({ responder: weatherResponder, apiKey: env.ANTHROPIC_API_KEY });
    const provider = anthropicFactory.create('claude-test', { baseURL: mock.url, stream, maxRetries: 0 }, { env });
    const first = firstTurn({ stop: ['</tool_call>'] });
    const r1 = await provider.generate(first);
    expect(r1.toolCalls).toEqual([{ id: 'toolu_1_0', name: 'get_weather', arguments: { city: 'Paris' } }]);
    expect(r1.finishReason).toBe('tool_calls');
    expect(r1.usage?.output).toBeGreaterThan(0);

    const r2 = await provider.generate(secondTurn(first, r1));
    expect(r2.text).toContain(TOOL_RESULT);
    expect(r2.finishReason).toBe('stop');

    const [req1, req2] = mock.requests.map((r) => r.body as Record<string, unknown>);
    expect(req1).toMatchObject({
      model: 'claude-test',
      max_tokens: 4096,
      system: 'You are a weather assistant. Use the tools.',
      stop_sequences: ['</tool_call>'],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', required: ['city'] } }],
    });
    if (stream) expect(req1?.stream).toBe(true);
    expect(req2?.messages).toEqual([
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1_0', name: 'get_weather', input: { city: 'Paris' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1_0', content: TOOL_RESULT }] },
    ]);
  });
});

describe('anthropic conversions', () => {
  it('merges consecutive tool results into one user message and flags errors', async () => {
    mock = await startLlmMock({
      responder: scriptedResponder([
        {
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Paris' } },
            { name: 'get_weather', arguments: { city: 'Oslo' } },
          ],
        },
        { text: 'done' },
      ]),
    });
    const provider = anthropicFactory.create('c', { baseURL: mock.url }, { env });
    const first = firstTurn();
    const r1 = await provider.generate(first);
    expect(r1.toolCalls.map((c) => c.id)).toEqual(['toolu_1_0', 'toolu_1_1']);
    const second = secondTurn(first, r1, ['sunny', 'no such city']);
    const last = second.messages[second.messages.length - 1];
    if (last?.role === 'tool') last.isError = true;
    await provider.generate(second);
    const messages = (mock.requests[1]!.body as { messages: unknown[] }).messages;
    expect(messages).toHaveLength(3);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1_0', content: 'sunny' },
        { type: 'tool_result', tool_use_id: 'toolu_1_1', content: 'no such city', is_error: true },
      ],
    });
    // and the mock's neutral view maps the blocks back to contract tool messages
    expect(mock.requests[1]?.neutral?.messages.slice(-2)).toEqual([
      { role: 'tool', toolCallId: 'toolu_1_0', name: 'get_weather', content: 'sunny' },
      { role: 'tool', toolCallId: 'toolu_1_1', name: 'get_weather', content: 'no such city', isError: true },
    ]);
  });

  it('puts cache_control on the system block and the last tool when asked, and maps toolChoice', async () => {
    mock = await startLlmMock({ responder: weatherResponder });
    const provider = anthropicFactory.create('c', { baseURL: mock.url, toolChoice: 'required' }, { env });
    await provider.generate(firstTurn({ cacheHints: { cachePrefix: true } }));
    expect(mock.requests[0]?.body).toMatchObject({
      system: [
        { type: 'text', text: 'You are a weather assistant. Use the tools.', cache_control: { type: 'ephemeral' } },
      ],
      tools: [{ name: 'get_weather', cache_control: { type: 'ephemeral' } }],
      tool_choice: { type: 'any' },
    });
  });

  it('reports cached tokens and counts them in input', async () => {
    mock = await startLlmMock({
      responder: scriptedResponder([{ text: 'ok', usage: { input: 100, output: 5, cached: 80 } }]),
    });
    const provider = anthropicFactory.create('c', { baseURL: mock.url }, { env });
    const r = await provider.generate(firstTurn());
    expect(r.usage).toEqual({ input: 100, output: 5, cached: 80 });
  });

  it('rejects temperature and a missing key with clear errors', () => {
    expect(() => anthropicFactory.create('c', { temperature: 0 }, { env })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
    expect(() => anthropicFactory.create('c', {}, { env: {} })).toThrow(
      expect.objectContaining({ code: 'PROVIDER_AUTH', message: expect.stringContaining('ANTHROPIC_API_KEY') }),
    );
  });
});
