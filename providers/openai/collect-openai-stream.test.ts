import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { ToolgaugeError } from '../../src/errors.js';
import { collectChatCompletion } from './collect-openai-stream.js';

type Choice = ChatCompletionChunk.Choice;

function chunk(choices: Partial<Choice>[], extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk {
  return {
    id: 'chatcmpl-9',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-test',
    choices: choices.map((c) => ({ index: 0, delta: {}, finish_reason: null, ...c })) as Choice[],
    ...extra,
  };
}

async function* from(chunks: ChatCompletionChunk[]): AsyncGenerator<ChatCompletionChunk> {
  yield* chunks;
}

describe('collectChatCompletion', () => {
  it('concatenates content and tool-call argument fragments per index, keeps the finish reason and usage', async () => {
    const completion = await collectChatCompletion(
      'openai:t',
      from([
        chunk([{ delta: { role: 'assistant', content: 'Let me ' } }]),
        chunk([{ delta: { content: 'check.' } }]),
        chunk([
          {
            delta: {
              tool_calls: [
                { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } },
              ],
            },
          },
        ]),
        chunk([
          {
            delta: {
              tool_calls: [
                { index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
                { index: 0, function: { arguments: 'ty":"Paris"}' } },
              ],
            },
          },
        ]),
        chunk([{ finish_reason: 'tool_calls' }]),
        chunk([], { usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } }),
      ]),
    );
    expect(completion).toMatchObject({
      id: 'chatcmpl-9',
      object: 'chat.completion',
      model: 'gpt-test',
      usage: { prompt_tokens: 12, completion_tokens: 5 },
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Let me check.',
            refusal: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
            ],
          },
        },
      ],
    });
  });

  it('a text-only stream has no tool_calls and content null when nothing was said', async () => {
    const completion = await collectChatCompletion(
      'openai:t',
      from([chunk([{ delta: { role: 'assistant' } }]), chunk([{ finish_reason: 'stop' }])]),
    );
    expect(completion.choices[0]?.message).toEqual({ role: 'assistant', content: null, refusal: null });
  });

  it('a stream that ends without a finish_reason is a bad response', async () => {
    const pending = collectChatCompletion(
      'openai:t',
      from([chunk([{ delta: { role: 'assistant', content: 'half' } }])]),
    );
    await expect(pending).rejects.toBeInstanceOf(ToolgaugeError);
    await expect(pending).rejects.toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      message: expect.stringContaining('finish_reason'),
    });
  });
});
