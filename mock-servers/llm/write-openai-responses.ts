import type { MockReply } from './types.js';
import { pieces, sseFrame, type WireContext, type WireOutput } from './wire-output.js';
import { callId } from './write-openai.js';

type Status = 'in_progress' | 'completed';

interface MessageItem {
  type: 'message';
  id: string;
  role: 'assistant';
  status: Status;
  content: { type: 'output_text'; text: string; annotations: unknown[] }[];
}

interface CallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: Status;
}

type OutputItem = MessageItem | CallItem;

/** The output items: the text as one message (when there is text), then one function_call per call. */
function itemsOf(reply: MockReply, ctx: WireContext): OutputItem[] {
  const n = ctx.requestNumber;
  const items: OutputItem[] = [];
  if (reply.text) {
    items.push({
      type: 'message',
      id: `msg_${n}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  (reply.toolCalls ?? []).forEach((c, i) => {
    items.push({
      type: 'function_call',
      id: `fc_${n}_${i}`,
      call_id: callId(ctx, i, c.id),
      name: c.name,
      arguments: JSON.stringify(c.arguments),
      status: 'completed',
    });
  });
  return items;
}

function usageOf(ctx: WireContext) {
  return {
    input_tokens: ctx.usage.input,
    output_tokens: ctx.usage.output,
    total_tokens: ctx.usage.input + ctx.usage.output,
    input_tokens_details: { cached_tokens: ctx.usage.cached ?? 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
}

/** A Response object; `output` empty and `usage` null while in progress, as the real API sends it. */
function responseOf(ctx: WireContext, status: Status, output: OutputItem[]) {
  return {
    id: `resp_${ctx.requestNumber}`,
    object: 'response',
    created_at: 1_700_000_000 + ctx.requestNumber,
    status,
    error: null,
    incomplete_details: null,
    model: ctx.model,
    output,
    parallel_tool_calls: true,
    store: false,
    usage: status === 'completed' ? usageOf(ctx) : null,
  };
}

/** `POST /v1/responses` with `stream` absent or false. */
export function responsesJson(reply: MockReply, ctx: WireContext): WireOutput {
  const body = responseOf(ctx, 'completed', itemsOf(reply, ctx));
  return { contentType: 'application/json', frames: [JSON.stringify(body)] };
}

/**
 * `POST /v1/responses` with `stream: true`: named SSE events, each with its `sequence_number`, from
 * `response.created` to `response.completed` (which carries the whole response), text and call arguments in pieces.
 */
export function responsesStream(reply: MockReply, ctx: WireContext): WireOutput {
  let sequence = 0;
  const frames: string[] = [];
  const ev = (type: string, data: object) =>
    frames.push(sseFrame({ type, sequence_number: sequence++, ...data }, type));
  ev('response.created', { response: responseOf(ctx, 'in_progress', []) });
  ev('response.in_progress', { response: responseOf(ctx, 'in_progress', []) });
  const items = itemsOf(reply, ctx);
  items.forEach((item, output_index) => {
    const at = { item_id: item.id, output_index };
    if (item.type === 'message') {
      const text = item.content[0]?.text ?? '';
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const part = { type: 'output_text', text: '', annotations: [] };
      ev('response.content_part.added', { ...at, content_index: 0, part });
      for (const delta of pieces(text)) {
        ev('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
      }
      ev('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] });
      ev('response.content_part.done', { ...at, content_index: 0, part: { ...part, text } });
    } else {
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const delta of pieces(item.arguments, 2)) ev('response.function_call_arguments.delta', { ...at, delta });
      ev('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments });
    }
    ev('response.output_item.done', { output_index, item });
  });
  ev('response.completed', { response: responseOf(ctx, 'completed', items) });
  return { contentType: 'text/event-stream', frames };
}
