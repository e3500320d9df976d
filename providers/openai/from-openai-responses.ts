import type { Response } from 'openai/resources/responses/responses';
import type { NativeCall } from '../../src/contracts/model.js';
import { ToolgaugeError } from '../../src/errors.js';
import { type SdkResult, tokenUsage } from '../shared/sdk-provider.js';

function finishReasonOf(response: Response, toolCalls: NativeCall[]): string {
  if (toolCalls.length) return 'tool_calls';
  if (response.status === 'incomplete') {
    // Chat Completions' words, so reports compare across the two APIs.
    const reason = response.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return 'length';
    if (reason === 'content_filter') return 'content_filter';
  }
  return 'stop';
}

/** A Responses API reply (streamed and taken from the final event, or not) → the neutral result. */
export function fromOpenAIResponse(providerId: string, response: Response): SdkResult {
  const bad = (why: string) =>
    new ToolgaugeError('PROVIDER_BAD_RESPONSE', `provider ${providerId}: ${why}`, { provider: providerId });
  if (!response || !Array.isArray(response.output)) throw bad('reply has no output array');
  if (response.status === 'failed') {
    throw bad(`response failed: ${response.error?.message ?? 'no error message'}`);
  }
  let text = '';
  const toolCalls: NativeCall[] = [];
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) if (part.type === 'output_text') text += part.text;
    } else if (item.type === 'function_call') {
      // call_id (not the item's own `id`) is what a function_call_output must quote back.
      toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
    }
  }
  const result: SdkResult = { response, text, toolCalls, finishReason: finishReasonOf(response, toolCalls) };
  const u = response.usage;
  if (u) result.usage = tokenUsage(u.input_tokens, u.output_tokens, u.input_tokens_details?.cached_tokens);
  return result;
}
