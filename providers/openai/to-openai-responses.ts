import type {
  FunctionTool,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses';
import type { Message, ModelRequest, RenderedTool } from '../../src/contracts/model.js';
import type { ProviderOptions, ToolChoice } from '../shared/options.js';
import { argumentsString } from '../shared/sdk-provider.js';
import { wireTools } from '../shared/wire-tools.js';

/**
 * One neutral message → Responses input items. An assistant turn is its text (if any) as a message plus one
 * `function_call` item per call; a tool result is a `function_call_output` tied to its call by `call_id`.
 */
export function toResponsesInput(message: Message): ResponseInputItem[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: message.content }];
    case 'assistant': {
      const items: ResponseInputItem[] = [];
      if (message.content || !message.toolCalls?.length) items.push({ role: 'assistant', content: message.content });
      for (const call of message.toolCalls ?? []) {
        items.push({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: argumentsString(call.arguments),
        });
      }
      return items;
    }
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.toolCallId, output: message.content }];
  }
}

export function toResponsesTool(tool: RenderedTool): FunctionTool {
  // strict: false — the rendered schemas are measured as given; strict mode would rewrite/reject optional fields.
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  };
}

export function toResponsesToolChoice(choice: ToolChoice): ToolChoiceOptions | ToolChoiceFunction {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

/** The neutral request → the Responses API body (without `stream`, which the caller adds). */
export function toOpenAIResponsesParams(
  model: string,
  request: ModelRequest,
  options: ProviderOptions,
): ResponseCreateParamsNonStreaming {
  const input: ResponseInputItem[] = [];
  for (const message of request.messages) input.push(...toResponsesInput(message));
  // An eval must not leave stored responses (prompts, tool results) on the user's account: OpenAI stores every
  // response for 30 days unless `store: false`, and nothing here ever continues from a stored response.
  const params: ResponseCreateParamsNonStreaming = {
    model,
    ...(request.system ? { instructions: request.system } : {}),
    input,
    store: false,
  };
  if (request.tools?.length) {
    params.tools = wireTools(request.tools, 'openai-responses', (tools) => tools.map(toResponsesTool));
    if (options.toolChoice) params.tool_choice = toResponsesToolChoice(options.toolChoice);
  }
  // No stop sequences: the Responses API has no `stop` parameter, so `request.stop` cannot be sent. Protocols that
  // rely on it (xml-tags' `</tool_call>`) still parse, the model may just write past the closing tag.
  if (options.temperature !== undefined) params.temperature = options.temperature;
  if (options.maxTokens !== undefined) params.max_output_tokens = options.maxTokens;
  return params;
}
