import type {
  ToolChoice as AnthropicToolChoice,
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { Message, ModelRequest, RenderedTool } from '../../src/contracts/model.js';
import type { ProviderOptions, ToolChoice } from '../shared/options.js';
import { argumentsObject } from '../shared/sdk-provider.js';
import { wireTools } from '../shared/wire-tools.js';

/** Anthropic requires `max_tokens`; used when the config sets none. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/**
 * Neutral messages → Anthropic messages. Assistant tool calls become `tool_use` blocks; tool results become
 * `tool_result` blocks in a user message (there is no `role: tool`), and consecutive same-role turns are merged
 * into one message, because the API wants user/assistant turns to alternate.
 */
export function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        push('user', [{ type: 'text', text: message.content }]);
        break;
      case 'assistant': {
        const blocks: ContentBlockParam[] = [];
        if (message.content !== '') blocks.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) {
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) });
        }
        if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
        push('assistant', blocks);
        break;
      }
      case 'tool':
        push('user', [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            content: message.content,
            ...(message.isError ? { is_error: true } : {}),
          },
        ]);
        break;
    }
  }
  // A lone text block is sent in the short string form, as most clients do.
  return out.map((m) => {
    const only = m.content.length === 1 ? m.content[0] : undefined;
    return only?.type === 'text' ? { role: m.role, content: only.text } : m;
  });
}

export function toAnthropicTool(tool: RenderedTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.parameters, type: 'object' } as Tool.InputSchema,
  };
}

export function toAnthropicToolChoice(choice: ToolChoice): AnthropicToolChoice {
  if (typeof choice !== 'string') return { type: 'tool', name: choice.name };
  switch (choice) {
    case 'auto':
      return { type: 'auto' };
    case 'required':
      return { type: 'any' };
    case 'none':
      return { type: 'none' };
  }
}

/** The neutral request → the Messages API body (without `stream`). */
export function toAnthropicParams(
  model: string,
  request: ModelRequest,
  options: ProviderOptions,
): MessageCreateParamsNonStreaming {
  const cache = request.cacheHints?.cachePrefix === true;
  const params: MessageCreateParamsNonStreaming = {
    model,
    max_tokens: options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    messages: toAnthropicMessages(request.messages),
  };
  if (request.system) {
    const block: TextBlockParam = { type: 'text', text: request.system };
    params.system = cache ? [{ ...block, cache_control: { type: 'ephemeral' } }] : request.system;
  }
  if (request.tools?.length) {
    params.tools = wireTools(request.tools, cache ? 'anthropic+cache' : 'anthropic', (list) => {
      const tools = list.map(toAnthropicTool);
      const last = tools[tools.length - 1];
      if (cache && last) last.cache_control = { type: 'ephemeral' };
      return tools;
    });
    if (options.toolChoice) params.tool_choice = toAnthropicToolChoice(options.toolChoice);
  }
  if (request.stop?.length) params.stop_sequences = request.stop;
  return params;
}
