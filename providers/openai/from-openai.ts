import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { NativeCall } from '../../src/contracts/model.js';
import { ToolgaugeError } from '../../src/errors.js';
import { type SdkResult, tokenUsage } from '../shared/sdk-provider.js';

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
  const u = completion.usage;
  if (u) result.usage = tokenUsage(u.prompt_tokens, u.completion_tokens, u.prompt_tokens_details?.cached_tokens);
  return result;
}
