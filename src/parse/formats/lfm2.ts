import type { FinderContext, Found } from '../found-call.js';
import { findTokenBodies } from './token-bodies.js';

/** `[name(`, `name(` or a JSON value: what an LFM2 call body opens with (MiniCPM's `<function …>` markup is not). */
const BODY_START = /^(?:[[{]|[\p{L}_][\p{L}\p{N}_.]*\s*\()/u;

/**
 * Liquid LFM2's calls: `<|tool_call_start|>[get_weather(city="Oslo"), get_time(zone="CET")]<|tool_call_end|>`, python
 * calls in a list (or one bare call), or, with JSON tools, a JSON list of `{"name", "arguments"}` objects. The model
 * writes the end token, so a body without it is `truncated`; a python list the reply cut off is closed and read up to
 * the cut. MiniCPM writes `<function name="…">` markup between the same tokens, which the MiniCPM finder reads: a body
 * that opens with a tag is left to it, as is any other body that opens like no call.
 */
export function findLfm2Calls(text: string, ctx: FinderContext): Found {
  return findTokenBodies(text, ctx, {
    shape: 'lfm2',
    open: '<|tool_call_start|>',
    close: '<|tool_call_end|>',
    closeRequired: true,
    pythonCut: true,
    bodyAt: (t, i) => BODY_START.test(t.slice(i, i + 200)),
  });
}
