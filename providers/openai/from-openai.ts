import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { NativeCall, Usage } from '../../src/contracts/model.js';
import { ToolgaugeError } from '../../src/errors.js';
import type { SdkResult } from '../shared/sdk-provider.js';

/** A Chat Completion (streamed and accumulated, or not) → the neutral result. Arguments stay the API's string. */
export function fromChatCompletion(providerId: string, completion: ChatCompletion): SdkResult {
  const choice = completion?.choices?.[0];
  if (!choice?.message) {
    throw new ToolgaugeError('PROVIDER_BAD_RESPONSE', `provider ${providerId}: reply has no choices[0].message`, {
      provider: providerId,
    });
  }
  const toolCalls: NativeCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type === 'function') {
      toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments });
    } else {
      toolCalls.push({ id: call.id, name: call.custom.name, arguments: call.custom.input });
    }
  }
  const result: SdkResult = {
    response: completion,
    text: choice.message.content ?? '',
    toolCalls,
    finishReason: choice.finish_reason ?? 'unknown',
  };
  if (completion.usage) {
    const usage: Usage = { input: completion.usage.prompt_tokens, output: completion.usage.completion_tokens };
    const cached = completion.usage.prompt_tokens_details?.cached_tokens;
    if (typeof cached === 'number') usage.cached = cached;
    result.usage = usage;
  }
  return result;
}
