// A provider plugin: answers every turn with the same text (options.reply) and never calls a tool. A provider module
// exports `provider`: a Provider, or a function of the entry's options that makes one, as here:
//   providers: [{ id: ./examples/plugins/canned-provider.ts, options: { reply: 'Paris.' } }]
import type { ModelRequest, ModelResponse, Provider } from 'toolgauge';

export function provider(options: Record<string, unknown>): Provider {
  const reply = typeof options.reply === 'string' ? options.reply : 'I cannot help with that.';
  return {
    id: 'canned',
    kind: 'canned', // a kind of its own: a provider need not pose as a built-in one
    simulated: true,
    async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      signal?.throwIfAborted();
      return {
        text: reply,
        toolCalls: [],
        finishReason: 'stop',
        latencyMs: 0,
        raw: { request: { messages: request.messages.length }, response: { text: reply } },
      };
    },
  };
}
