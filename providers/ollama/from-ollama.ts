import type { ChatResponse, ToolCall } from 'ollama';
import type { NativeCall, Usage } from '../../src/contracts/model.js';
import { ToolgaugeError } from '../../src/errors.js';
import type { SdkResult } from '../shared/sdk-provider.js';

/**
 * Ollama replies (one, or the accumulated parts of a stream) → the neutral result. Ollama tool calls carry no id,
 * so ids are made up here, unique within the run's turn: `ollama-<turn>-<index>`.
 */
export function fromOllamaParts(providerId: string, parts: readonly ChatResponse[], turn: number): SdkResult {
  const last = parts[parts.length - 1];
  if (!last?.done) {
    throw new ToolgaugeError('PROVIDER_BAD_RESPONSE', `provider ${providerId}: reply ended without done: true`, {
      provider: providerId,
    });
  }
  let text = '';
  const calls: ToolCall[] = [];
  for (const part of parts) {
    text += part.message?.content ?? '';
    calls.push(...(part.message?.tool_calls ?? []));
  }
  const toolCalls: NativeCall[] = calls.map((call, i) => ({
    id: `ollama-${turn}-${i}`,
    name: call.function?.name ?? '',
    arguments: call.function?.arguments ?? {},
  }));
  const usage: Usage = { input: last.prompt_eval_count ?? 0, output: last.eval_count ?? 0 };
  const doneReason = last.done_reason || 'stop';
  const response =
    parts.length === 1
      ? last
      : { ...last, message: { ...last.message, role: 'assistant', content: text, tool_calls: calls } };
  return {
    response,
    text,
    toolCalls,
    finishReason: toolCalls.length && doneReason === 'stop' ? 'tool_calls' : doneReason,
    usage,
  };
}
