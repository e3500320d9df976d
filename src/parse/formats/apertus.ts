import type { FinderContext, Found } from '../found-call.js';
import { findTokenBodies } from './token-bodies.js';

/**
 * Apertus' calls: `<|tools_prefix|>[{"get_weather": {"city": "Oslo"}}, …]<|tools_suffix|>`, a JSON list whose elements
 * each have one key, the tool's name, holding the arguments (not `{"name", "arguments"}` objects; nameKeyedCalls). The
 * model writes the suffix token before its end-of-turn token, so a list without it is `truncated`. The prefix token
 * followed by anything but a JSON list or object is prose that mentions it. Reasoning between `<|inner_prefix|>` and
 * `<|inner_suffix|>` is masked before (reasoning channels).
 */
export function findApertusCalls(text: string, ctx: FinderContext): Found {
  return findTokenBodies(text, ctx, {
    shape: 'apertus',
    open: '<|tools_prefix|>',
    close: '<|tools_suffix|>',
    closeRequired: true,
    nameKeyed: true,
  });
}
