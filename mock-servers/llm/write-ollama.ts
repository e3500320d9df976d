import type { MockReply } from './types.js';
import { pieces, type WireContext, type WireOutput } from './wire-output.js';

const CREATED_AT = '2026-01-01T00:00:00Z';

function toolCallsOf(reply: MockReply) {
  return (reply.toolCalls ?? []).map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
}

function stats(ctx: WireContext) {
  return {
    done_reason: 'stop',
    total_duration: 1_000_000,
    load_duration: 1000,
    prompt_eval_count: ctx.usage.input,
    prompt_eval_duration: 1000,
    eval_count: ctx.usage.output,
    eval_duration: 1000,
  };
}

/** `POST /api/chat` with `stream: false`. */
export function ollamaJson(reply: MockReply, ctx: WireContext): WireOutput {
  const calls = toolCallsOf(reply);
  const body = {
    model: ctx.model,
    created_at: CREATED_AT,
    message: { role: 'assistant', content: reply.text ?? '', ...(calls.length ? { tool_calls: calls } : {}) },
    done: true,
    ...stats(ctx),
  };
  return { contentType: 'application/json', frames: [JSON.stringify(body)] };
}

/** `POST /api/chat` streaming: NDJSON lines with `done: false`, then one with `done: true` and the stats. */
export function ollamaStream(reply: MockReply, ctx: WireContext): WireOutput {
  const line = (message: object, done: boolean, extra: object = {}) =>
    `${JSON.stringify({ model: ctx.model, created_at: CREATED_AT, message: { role: 'assistant', ...message }, done, ...extra })}\n`;
  const frames = pieces(reply.text ?? '').map((content) => line({ content }, false));
  const calls = toolCallsOf(reply);
  if (calls.length) frames.push(line({ content: '', tool_calls: calls }, false));
  frames.push(line({ content: '' }, true, stats(ctx)));
  return { contentType: 'application/x-ndjson', frames };
}
