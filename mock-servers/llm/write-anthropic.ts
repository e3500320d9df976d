import type { MockReply } from './types.js';
import { pieces, sseFrame, type WireContext, type WireOutput } from './wire-output.js';

function blocksOf(reply: MockReply, ctx: WireContext) {
  const blocks: ({ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: object })[] = [];
  if (reply.text) blocks.push({ type: 'text', text: reply.text });
  (reply.toolCalls ?? []).forEach((c, i) => {
    blocks.push({ type: 'tool_use', id: c.id ?? `toolu_${ctx.requestNumber}_${i}`, name: c.name, input: c.arguments });
  });
  return blocks;
}

function usageOf(ctx: WireContext, output: number) {
  const cached = ctx.usage.cached ?? 0;
  const written = ctx.usage.cacheWrite ?? 0;
  return {
    input_tokens: ctx.usage.input - cached - written,
    output_tokens: output,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
  };
}

const stopReason = (reply: MockReply) => (reply.toolCalls?.length ? 'tool_use' : 'end_turn');

/** `POST /v1/messages` with `stream` absent or false. */
export function anthropicJson(reply: MockReply, ctx: WireContext): WireOutput {
  const body = {
    id: `msg_${ctx.requestNumber}`,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content: blocksOf(reply, ctx),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: usageOf(ctx, ctx.usage.output),
  };
  return { contentType: 'application/json', frames: [JSON.stringify(body)] };
}

/** `POST /v1/messages` with `stream: true`: the full named-event sequence the SDK requires. */
export function anthropicStream(reply: MockReply, ctx: WireContext): WireOutput {
  const ev = (type: string, data: object) => sseFrame({ type, ...data }, type);
  const frames = [
    ev('message_start', {
      message: {
        id: `msg_${ctx.requestNumber}`,
        type: 'message',
        role: 'assistant',
        model: ctx.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usageOf(ctx, 1),
      },
    }),
    ev('ping', {}),
  ];
  blocksOf(reply, ctx).forEach((block, index) => {
    if (block.type === 'text') {
      frames.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const text of pieces(block.text)) {
        frames.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text } }));
      }
    } else {
      frames.push(
        ev('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      for (const partial_json of pieces(JSON.stringify(block.input), 2)) {
        frames.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
      }
    }
    frames.push(ev('content_block_stop', { index }));
  });
  frames.push(
    ev('message_delta', {
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: ctx.usage.output },
    }),
  );
  frames.push(ev('message_stop', {}));
  return { contentType: 'text/event-stream', frames };
}
