import type { FinderContext, Found } from '../found-call.js';
import { findTokenBodies } from './token-bodies.js';

/**
 * Command R7B / Command A actions: `<|START_ACTION|>[{"tool_call_id", "tool_name", "parameters"}, …]<|END_ACTION|>`.
 * `tool_call_id` becomes the call id. The model writes `<|END_ACTION|>` before its end-of-turn token, so a call
 * without it is `truncated`. Command R+'s `Action: ```json [{"tool_name", "parameters"}] ``` ` is a fenced JSON call
 * list, which the fence finder reads. Reasoning in `<|START_THINKING|>…<|END_THINKING|>` is masked before (reasoning
 * channels).
 */
export function findCommandRCalls(text: string, ctx: FinderContext): Found {
  return findTokenBodies(text, ctx, {
    shape: 'command-r',
    open: '<|START_ACTION|>',
    close: '<|END_ACTION|>',
    closeRequired: true,
  });
}
