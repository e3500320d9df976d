import type { FinderContext, Found } from '../found-call.js';
import { findTokenBodies } from './token-bodies.js';

/**
 * InternLM2 / 2.5 plugin calls: `<|action_start|><|plugin|>` then a JSON call `{"name", "parameters"}`, then
 * `<|action_end|>`. `<|action_end|>` is a stop word in InternLM's serving configs (a server may strip it), so a call
 * without it is `truncated` only when its JSON was cut off. `<|action_start|><|interpreter|>` holds code for the code
 * interpreter, not a tool call, and is not read.
 */
export function findInternlmCalls(text: string, ctx: FinderContext): Found {
  return findTokenBodies(text, ctx, {
    shape: 'internlm',
    open: '<|action_start|>',
    follow: '<|plugin|>',
    close: '<|action_end|>',
    closeRequired: false,
  });
}
