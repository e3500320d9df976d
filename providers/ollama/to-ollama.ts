import type { ChatRequest, Message as OllamaMessage, Tool as OllamaTool } from 'ollama';
import type { Message, ModelRequest, RenderedTool } from '../../src/contracts/model.js';
import type { ProviderOptions } from '../shared/options.js';
import { argumentsObject } from '../shared/sdk-provider.js';
import { wireTools } from '../shared/wire-tools.js';

/** One neutral message → an Ollama `/api/chat` message (tool results: `role: tool` + `tool_name`, no call id). */
export function toOllamaMessage(message: Message): OllamaMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const out: OllamaMessage = { role: 'assistant', content: message.content };
      if (message.toolCalls?.length) {
        out.tool_calls = message.toolCalls.map((call) => ({
          function: { name: call.name, arguments: argumentsObject(call.arguments) },
        }));
      }
      return out;
    }
    case 'tool':
      return { role: 'tool', content: message.content, tool_name: message.name };
  }
}

export function toOllamaTool(tool: RenderedTool): OllamaTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as NonNullable<OllamaTool['function']['parameters']>,
    },
  };
}

/**
 * The neutral request → the `/api/chat` body (without `stream`). Ollama has no tool_choice: `toolChoice: none`
 * leaves the tools out, other values are ignored.
 */
export function toOllamaChatRequest(model: string, request: ModelRequest, options: ProviderOptions): ChatRequest {
  const messages: OllamaMessage[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(toOllamaMessage(message));
  const body: ChatRequest = { model, messages };
  if (request.tools?.length && options.toolChoice !== 'none')
    body.tools = wireTools(request.tools, 'ollama', (tools) => tools.map(toOllamaTool));
  const modelOptions: NonNullable<ChatRequest['options']> = {};
  if (options.temperature !== undefined) modelOptions.temperature = options.temperature;
  if (options.maxTokens !== undefined) modelOptions.num_predict = options.maxTokens;
  if (request.stop?.length) modelOptions.stop = request.stop;
  if (Object.keys(modelOptions).length) body.options = modelOptions;
  return body;
}
