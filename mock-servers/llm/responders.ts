import { protocolOfPrompt } from '../../renderers/parts/call-protocol.js';
import { toolSearchOfPrompt } from '../../renderers/tool-search.js';
import type { ModelRequest, Oracle, Protocol } from '../../src/contracts/model.js';
import type { Provider } from '../../src/contracts/provider.js';
import type { MockReply, NeutralRequest, Responder } from './types.js';

/** Answers with the given replies in order; a request past the end is a 500 naming the script length. */
export function scriptedResponder(replies: readonly MockReply[]): Responder {
  let next = 0;
  return () => {
    const reply = replies[next];
    if (!reply) throw new Error(`llm mock: script exhausted (${replies.length} replies, request ${next + 1})`);
    next++;
    return reply;
  };
}

/** A placeholder value of the schema's type, so a default call is schema-shaped. */
function placeholder(schema: unknown): unknown {
  const type = (schema as { type?: unknown } | undefined)?.type;
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'example';
  }
}

/**
 * The default for `toolgauge serve llm`: if tools are offered and the last message is not a tool result, call the
 * first tool with placeholder values for its required parameters; after a tool result, answer citing it; otherwise
 * echo the last user message. Every tool loop therefore ends after one call.
 */
export const echoResponder: Responder = (request) => {
  const last = request.messages[request.messages.length - 1];
  const tool = request.tools[0];
  if (tool && last?.role !== 'tool') {
    const props = (tool.parameters.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(tool.parameters.required) ? (tool.parameters.required as string[]) : [];
    const args = Object.fromEntries(required.map((name) => [name, placeholder(props[name])]));
    return { toolCalls: [{ name: tool.name, arguments: args }] };
  }
  if (last?.role === 'tool') return { text: `The tool ${last.name || 'call'} returned: ${last.content}` };
  return { text: `echo: ${last?.content ?? ''}` };
};

/**
 * The protocol a wire request asks for, which it does not carry: native when it offers tools natively, else the text
 * protocol whose section the renderer wrote into the system prompt (xml-tags for a prompt without one: a renderer of
 * the user's own that words its protocol otherwise is answered in tags).
 */
export function protocolOfRequest(request: Pick<NeutralRequest, 'system' | 'tools'>): Protocol {
  if (request.tools.length) return 'native';
  return protocolOfPrompt(request.system) ?? 'xml-tags';
}

/** The neutral view as a ModelRequest, so any Provider (e.g. a simulated persona) can answer over the wire. */
export function toModelRequest(request: NeutralRequest): ModelRequest {
  // a tool-search prompt says so in its text: a persona behind the wire searches as it would in process
  const toolSearch = toolSearchOfPrompt(request.system, request.tools);
  return {
    ...(toolSearch ? { toolSearch } : {}),
    system: request.system,
    messages: request.messages,
    tools: request.tools.map((t) => ({ ...t, target: { server: 'llm-mock', tool: t.name } })),
    protocol: protocolOfRequest(request),
    ...(request.stop.length ? { stop: request.stop } : {}),
    meta: {
      caseId: 'llm-mock',
      repeat: 0,
      seed: 0,
      renderer: 'llm-mock',
      turn: request.messages.filter((m) => m.role === 'assistant').length,
    },
  };
}

/**
 * Plugs a Provider in as a Responder: its text and native tool calls become the mock's reply. `oracleFor` gives a
 * request the case expectations a wire request cannot carry (what sim:oracle and sim:noisy answer from).
 */
export function providerResponder(
  provider: Provider,
  oracleFor?: (request: NeutralRequest) => Oracle | undefined,
): Responder {
  return async (request) => {
    const oracle = oracleFor?.(request);
    const response = await provider.generate(toModelRequest(request), undefined, oracle);
    const reply: MockReply = {
      text: response.text,
      toolCalls: response.toolCalls.map((call) => ({
        name: call.name,
        arguments: typeof call.arguments === 'string' ? parseArgs(call.arguments) : call.arguments,
      })),
    };
    if (response.usage) reply.usage = response.usage;
    return reply;
  };
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
