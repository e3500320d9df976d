import type {
  ContentBlock,
  Message,
  RawContentBlockDeltaEvent,
  RawMessageDeltaEvent,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import { ToolgaugeError } from '../../src/errors.js';

/**
 * Folds a Messages API event stream into the Message the SDK's stream helper
 * (`messages.stream().finalMessage()`) would return for the same events. We fold it ourselves because the
 * helper's event machinery cost ~0.5 ms of CPU per turn, more than the rest of the harness (bench/provider-overhead.ts).
 * The result is plain data (no lazy getters, no hidden JSON buffer), so it serialises like a non-streamed reply.
 * Only a message that reached `message_stop` counts; `ping` and event types newer than this code are ignored.
 */
export async function collectAnthropicMessage(
  providerId: string,
  events: AsyncIterable<RawMessageStreamEvent>,
): Promise<Message> {
  let message: Message | undefined;
  let stopped = false;
  // Tool input arrives as JSON text in pieces: keep each tool block's text by content index and parse it once at
  // the end, rather than on every delta.
  const toolJson = new Map<number, string>();
  for await (const event of events) {
    if (event.type === 'message_start') {
      // The helper never clears its snapshot, so it rejects any second message_start; so do we.
      if (message) throw badResponse(providerId, 'a second message_start arrived in one stream');
      // Copies, so folding never mutates the SDK's event objects.
      message = { ...event.message, content: [...event.message.content], usage: { ...event.message.usage } };
      continue;
    }
    // Like the helper, events before message_start change nothing; unlike it, neither do events after
    // message_stop (the API sends none; the helper would mutate a message it had already handed out).
    if (!message || stopped) continue;
    switch (event.type) {
      case 'content_block_start':
        message.content.push({ ...event.content_block });
        break;
      case 'content_block_delta':
        applyBlockDelta(message.content, event, toolJson);
        break;
      case 'message_delta':
        applyMessageDelta(message, event);
        break;
      case 'message_stop':
        stopped = true;
        break;
      // content_block_stop only tells the helper to freeze its lazy `input`; ours is never lazy.
    }
  }
  if (!message || !stopped) {
    throw badResponse(providerId, 'stream ended without a complete message (no message_stop)');
  }
  for (const [index, json] of toolJson) {
    const block = message.content[index];
    if (block && tracksToolInput(block)) block.input = parseToolInput(json);
  }
  return message;
}

function badResponse(providerId: string, what: string): ToolgaugeError {
  return new ToolgaugeError('PROVIDER_BAD_RESPONSE', `provider ${providerId}: ${what}`, { provider: providerId });
}

type ToolInputBlock = Extract<ContentBlock, { type: 'tool_use' | 'server_tool_use' }>;

function tracksToolInput(block: ContentBlock): block is ToolInputBlock {
  return block.type === 'tool_use' || block.type === 'server_tool_use';
}

/**
 * Applies one content delta to the block at its index. Blocks are already our own shallow copies (made at
 * content_block_start), so we update them in place. A delta whose block has another type is ignored, as the helper
 * does.
 */
function applyBlockDelta(content: ContentBlock[], event: RawContentBlockDeltaEvent, toolJson: Map<number, string>) {
  const block = content[event.index];
  if (!block) return;
  const delta = event.delta;
  switch (delta.type) {
    case 'text_delta':
      if (block.type === 'text') block.text = (block.text || '') + delta.text;
      break;
    case 'citations_delta':
      // A fresh array: the one from content_block_start belongs to the event.
      if (block.type === 'text') block.citations = [...(block.citations ?? []), delta.citation];
      break;
    case 'input_json_delta':
      if (tracksToolInput(block)) toolJson.set(event.index, (toolJson.get(event.index) ?? '') + delta.partial_json);
      break;
    case 'thinking_delta':
      if (block.type === 'thinking') block.thinking = (block.thinking ?? '') + delta.thinking;
      break;
    case 'signature_delta':
      if (block.type === 'thinking') block.signature = delta.signature;
      break;
  }
}

/**
 * stop_reason, stop_sequence and output_tokens always come from the delta. The other usage counters are cumulative
 * whole-message totals the API omits when they do not apply, so they overwrite only when present and never add.
 */
function applyMessageDelta(message: Message, event: RawMessageDeltaEvent) {
  const { delta, usage } = event;
  message.stop_reason = delta.stop_reason;
  message.stop_sequence = delta.stop_sequence;
  if ('stop_details' in delta) message.stop_details = delta.stop_details;
  if (delta.container != null) message.container = delta.container;
  const total = message.usage;
  total.output_tokens = usage.output_tokens;
  if (usage.input_tokens != null) total.input_tokens = usage.input_tokens;
  if (usage.cache_creation_input_tokens != null) total.cache_creation_input_tokens = usage.cache_creation_input_tokens;
  if (usage.cache_read_input_tokens != null) total.cache_read_input_tokens = usage.cache_read_input_tokens;
  if (usage.server_tool_use != null) total.server_tool_use = usage.server_tool_use;
  if (usage.output_tokens_details != null) total.output_tokens_details = usage.output_tokens_details;
}

/**
 * The whole input text of one tool block; no text at all means no arguments. The SDK helper runs a partial-JSON
 * parser here, which quietly turns broken or truncated arguments into some object. We use JSON.parse and keep text
 * that does not parse as the raw string: a model's malformed arguments are data to grade, never a crash — the
 * grader's parser repairs and flags them later.
 */
function parseToolInput(json: string): unknown {
  if (json === '') return {};
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
