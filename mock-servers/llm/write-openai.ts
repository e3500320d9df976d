import type { MockReply } from './types.js';
import { pieces, sseFrame, type WireContext, type WireOutput } from './wire-output.js';

/** The id of the i-th call of a reply when the responder gave none (the Responses writer uses it too). */
export function callId(ctx: WireContext, i: number, given?: string): string {
  return given ?? `call_${ctx.requestNumber}_${i}`;
}

function usageOf(ctx: WireContext) {
  return {
    prompt_tokens: ctx.usage.input,
    completion_tokens: ctx.usage.output,
    total_tokens: ctx.usage.input + ctx.usage.output,
    ...(ctx.usage.cached !== undefined ? { prompt_tokens_details: { cached_tokens: ctx.usage.cached } } : {}),
  };
}

/** `POST /v1/chat/completions` with `stream: false`. */
export function openaiJson(reply: MockReply, ctx: WireContext): WireOutput {
  const calls = reply.toolCalls ?? [];
  const body = {
    id: `chatcmpl-${ctx.requestNumber}`,
    object: 'chat.completion',
    created: 1_700_000_000 + ctx.requestNumber,
    model: ctx.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? (calls.length ? null : ''),
          refusal: null,
          ...(calls.length
            ? {
                tool_calls: calls.map((c, i) => ({
                  id: callId(ctx, i, c.id),
                  type: 'function',
                  function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: usageOf(ctx),
  };
  return { contentType: 'application/json', frames: [JSON.stringify(body)] };
}

/** `POST /v1/chat/completions` with `stream: true`: chunks, a finish chunk, a usage chunk if asked, `[DONE]`. */
export function openaiStream(reply: MockReply, ctx: WireContext): WireOutput {
  const base = {
    id: `chatcmpl-${ctx.requestNumber}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000 + ctx.requestNumber,
    model: ctx.model,
  };
  const chunk = (delta: unknown, finish: string | null = null) =>
    sseFrame({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: '' })];
  for (const text of pieces(reply.text ?? '')) frames.push(chunk({ content: text }));
  const calls = reply.toolCalls ?? [];
  calls.forEach((c, i) => {
    frames.push(
      chunk({
        tool_calls: [
          { index: i, id: callId(ctx, i, c.id), type: 'function', function: { name: c.name, arguments: '' } },
        ],
      }),
    );
    for (const part of pieces(JSON.stringify(c.arguments), 2)) {
      frames.push(chunk({ tool_calls: [{ index: i, function: { arguments: part } }] }));
    }
  });
  frames.push(chunk({}, calls.length ? 'tool_calls' : 'stop'));
  if (ctx.includeUsage) frames.push(sseFrame({ ...base, choices: [], usage: usageOf(ctx) }));
  frames.push(sseFrame('[DONE]'));
  return { contentType: 'text/event-stream', frames };
}
