import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { Message, ModelRequest, RenderedTool } from '../../src/contracts/model.js';
import type { ProviderOptions, ToolChoice } from '../shared/options.js';
import { argumentsString } from '../shared/sdk-provider.js';
import { wireTools } from '../shared/wire-tools.js';

export interface OpenAIWireOptions {
  /** OpenAI's own API wants `max_completion_tokens`; most compatible servers only know `max_tokens`. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
}

/** One neutral message → Chat Completions messages (tool results are `role: tool` + `tool_call_id`). */
export function toOpenAIMessage(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: argumentsString(call.arguments) },
        })),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

export function toOpenAITool(tool: RenderedTool): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

export function toOpenAIToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** The neutral request → the Chat Completions body (without `stream`, which the caller adds). */
export function toOpenAIChatParams(
  model: string,
  request: ModelRequest,
  options: ProviderOptions,
  wire: OpenAIWireOptions,
): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(toOpenAIMessage(message));
  const params: ChatCompletionCreateParamsNonStreaming = { model, messages };
  if (request.tools?.length) {
    params.tools = wireTools(request.tools, 'openai', (tools) => tools.map(toOpenAITool));
    if (options.toolChoice) params.tool_choice = toOpenAIToolChoice(options.toolChoice);
  }
  if (request.stop?.length) params.stop = request.stop.slice(0, 4);
  if (options.temperature !== undefined) params.temperature = options.temperature;
  if (options.maxTokens !== undefined) params[wire.maxTokensField] = options.maxTokens;
  return params;
}
