import type { Message as AnthropicMessage } from '@anthropic-ai/sdk/resources/messages';
import type { NativeCall, Usage } from '../../src/contracts/model.js';
import { ToolgaugeError } from '../../src/errors.js';
import type { SdkResult } from '../shared/sdk-provider.js';

/** Anthropic stop reasons → the OpenAI-style words used across providers (the raw response keeps the original). */
export function normaliseStopReason(reason: string | null | undefined): string {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return reason ?? 'unknown';
  }
}

/**
 * A Messages API reply → the neutral result. `usage.input` counts every prompt token (uncached + cache writes +
 * cache reads), like OpenAI's `prompt_tokens`; `usage.cached` is the cache reads and `usage.cacheWrite` the writes.
 */
export function fromAnthropicMessage(providerId: string, message: AnthropicMessage): SdkResult {
  if (!Array.isArray(message?.content)) {
    throw new ToolgaugeError('PROVIDER_BAD_RESPONSE', `provider ${providerId}: reply has no content array`, {
      provider: providerId,
    });
  }
  const texts: string[] = [];
  const toolCalls: NativeCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, name: block.name, arguments: (block.input ?? {}) as Record<string, unknown> });
    }
  }
  const result: SdkResult = {
    response: message,
    text: texts.join(''),
    toolCalls,
    finishReason: normaliseStopReason(message.stop_reason),
  };
  const u = message.usage;
  if (u) {
    const cachedRead = u.cache_read_input_tokens ?? 0;
    const usage: Usage = {
      input: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + cachedRead,
      output: u.output_tokens ?? 0,
    };
    if (u.cache_read_input_tokens != null) usage.cached = cachedRead;
    // writes only when there were any, so a reply without caching reads as before
    if (u.cache_creation_input_tokens) usage.cacheWrite = u.cache_creation_input_tokens;
    result.usage = usage;
  }
  return result;
}
