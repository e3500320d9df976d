import { randomUUID } from 'node:crypto';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageFunctionToolCall,
} from 'openai/resources/chat/completions';
import { ToolgaugeError } from '../../src/errors.js';

interface ChoiceState {
  index: number;
  finish_reason: ChatCompletion.Choice['finish_reason'] | null;
  logprobs: ChatCompletion.Choice['logprobs'];
  role: 'assistant' | undefined;
  content: string | null;
  refusal: string | null;
  toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] | undefined;
}

/**
 * Folds a Chat Completions chunk stream into the ChatCompletion the SDK's stream helper
 * (`chat.completions.stream().finalChatCompletion()`) would return: content, refusal and tool-call arguments
 * concatenated per choice, the last finish_reason, usage from the final chunk. We fold it ourselves because the
 * helper's event machinery cost ~0.7 ms of CPU per turn, more than the rest of the turn (bench/provider-overhead.ts).
 * Like the helper, a stream that ends without a finish_reason or role for a choice is a bad response.
 */
export async function collectChatCompletion(
  providerId: string,
  chunks: AsyncIterable<ChatCompletionChunk>,
): Promise<ChatCompletion> {
  const meta: Record<string, unknown> = {};
  const choices: ChoiceState[] = [];
  for await (const chunk of chunks) {
    for (const key in chunk) if (key !== 'choices' && key !== 'object') meta[key] = (chunk as never)[key];
    for (const delta of chunk.choices ?? []) {
      let state = choices[delta.index];
      if (!state) {
        state = {
          index: delta.index,
          finish_reason: null,
          logprobs: null,
          role: undefined,
          content: null,
          refusal: null,
          toolCalls: undefined,
        };
        choices[delta.index] = state;
      }
      if (delta.finish_reason) state.finish_reason = delta.finish_reason;
      if (delta.logprobs) {
        const content = [...(state.logprobs?.content ?? []), ...(delta.logprobs.content ?? [])];
        const refusal = [...(state.logprobs?.refusal ?? []), ...(delta.logprobs.refusal ?? [])];
        state.logprobs = { content, refusal };
      }
      const d = delta.delta;
      if (!d) continue;
      if (d.role) state.role = d.role as 'assistant';
      if (d.content) state.content = (state.content ?? '') + d.content;
      if (d.refusal) state.refusal = (state.refusal ?? '') + d.refusal;
      for (const call of d.tool_calls ?? []) {
        state.toolCalls ??= [];
        let slot = state.toolCalls[call.index];
        if (!slot) {
          slot = { id: '', type: 'function', function: { name: '', arguments: '' } };
          state.toolCalls[call.index] = slot;
        }
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.function.name = call.function.name;
        if (call.function?.arguments) slot.function.arguments += call.function.arguments;
      }
    }
  }
  return {
    ...(meta as Omit<ChatCompletion, 'choices' | 'object'>),
    object: 'chat.completion',
    choices: choices.filter(Boolean).map((state) => finalChoice(providerId, state)),
  };
}

function finalChoice(providerId: string, state: ChoiceState): ChatCompletion.Choice {
  const bad = (what: string) =>
    new ToolgaugeError(
      'PROVIDER_BAD_RESPONSE',
      `provider ${providerId}: stream ended with no ${what} for choice ${state.index}`,
      {
        provider: providerId,
      },
    );
  if (!state.finish_reason) throw bad('finish_reason');
  if (!state.role) throw bad('role');
  const message: ChatCompletion.Choice['message'] = {
    role: state.role,
    content: state.content,
    refusal: state.refusal,
  };
  if (state.toolCalls) {
    message.tool_calls = state.toolCalls.filter(Boolean).map(
      (call): ChatCompletionMessageFunctionToolCall => ({
        id: call.id || `call_${randomUUID()}`,
        type: 'function',
        function: { name: call.function.name, arguments: call.function.arguments },
      }),
    );
  }
  return { index: state.index, finish_reason: state.finish_reason, logprobs: state.logprobs, message };
}
