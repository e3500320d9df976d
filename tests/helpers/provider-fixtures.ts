import type { Responder } from '../../mock-servers/llm/types.js';
import type { Message, ModelRequest, ModelResponse, RenderedTool } from '../../src/contracts/model.js';

/** Shared by the provider tests: a tool, requests for a two-turn tool loop, and a responder that plays the model. */
export const weatherTool: RenderedTool = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['C', 'F'] } },
    required: ['city'],
  },
  target: { server: 'weather', tool: 'get_weather' },
};

export const TOOL_RESULT = 'Paris: sunny, 21 C';

export function firstTurn(extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are a weather assistant. Use the tools.',
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    tools: [weatherTool],
    protocol: 'native',
    meta: { caseId: 'weather', repeat: 0, seed: 1, renderer: 'native-functions', turn: 0 },
    ...extra,
  };
}

/** Turn 2: the history plus the assistant's tool calls and one tool result per call. */
export function secondTurn(first: ModelRequest, reply: ModelResponse, results: string[] = [TOOL_RESULT]): ModelRequest {
  const messages: Message[] = [
    ...first.messages,
    { role: 'assistant', content: reply.text, toolCalls: reply.toolCalls },
    ...reply.toolCalls.map(
      (call, i): Message => ({ role: 'tool', toolCallId: call.id, name: call.name, content: results[i] ?? '' }),
    ),
  ];
  return { ...first, messages, meta: { ...first.meta, turn: 1 } };
}

/** Calls get_weather(Paris) unless the last message is a tool result, which it then cites. */
export const weatherResponder: Responder = (request) => {
  const last = request.messages[request.messages.length - 1];
  if (last?.role === 'tool') {
    const results = request.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    return { text: `The weather: ${results.join(' | ')}.` };
  }
  return { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] };
};
