import type { FinderContext, Found } from '../found-call.js';
import { skipSpace } from '../json-scan.js';
import { findTokenBodies } from './token-bodies.js';

const IDENTIFIER_CHAR = /[\p{L}\p{N}_.]/u;

/**
 * Phi-4-mini's `functools[{"name", "arguments"}, …]`: the word `functools` and, with nothing between, a JSON list of
 * call objects. `functools` is an ordinary word (Python's module), so it must stand on its own (`myfunctools[` and
 * `x.functools[` are not it) and the `[` must open a list of objects. The list ends the turn; a call is `truncated`
 * only when its JSON was cut off.
 */
export function findPhiCalls(text: string, ctx: FinderContext): Found {
  return findTokenBodies(text, ctx, {
    shape: 'phi',
    open: 'functools',
    closeRequired: false,
    adjacent: true,
    openAt: (t, at) => at === 0 || !IDENTIFIER_CHAR.test(t[at - 1] ?? ''),
    bodyAt: (t, i) => t[i] === '[' && t[skipSpace(t, i + 1, i + 200)] === '{',
  });
}
