import type { FinderContext, Found } from '../found-call.js';
import { findTokenBodies } from './token-bodies.js';

/**
 * Granite 3.x `<|tool_call|>[{"name", "arguments"}, …]`: the token, then a JSON list of call objects (one object is
 * read too). The format has no closing token (the list ends the turn), so a call is `truncated` only when its JSON
 * was cut off. Granite 3.1+ and 4 write Hermes' `<tool_call>…</tool_call>` instead, which xml-tags reads.
 */
export function findGraniteCalls(text: string, ctx: FinderContext): Found {
  return findTokenBodies(text, ctx, { shape: 'granite', open: '<|tool_call|>', closeRequired: false });
}
