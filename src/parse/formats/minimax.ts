import { type FinderContext, type Found, mergeFound } from '../found-call.js';
import { mapFound, stripToken } from '../strip-token.js';
import { findInvokeMarkup, type InvokeDialect } from './invoke-xml.js';

/** MiniMax M3 writes this token before every tag of its calls. */
const NAMESPACE = ']<]minimax[>[';

/** MiniMax M2: `<minimax:tool_call>` blocks holding Anthropic-style invokes without a prefix. */
const M2: InvokeDialect = {
  shape: 'minimax',
  label: 'MiniMax <minimax:tool_call>',
  blocks: ['tool_call'],
  isPrefix: (p) => p === '',
  isBlockPrefix: (p) => p === 'minimax:',
  innerPrefix: () => '',
  maxPrefix: 8,
  typedByAttribute: false,
  blockOnly: true,
};

/** MiniMax M3, its namespace tokens taken out: `<tool_call><invoke name="…"><city>Oslo</city></invoke></tool_call>`. */
const M3: InvokeDialect = {
  shape: 'minimax',
  label: 'MiniMax M3 <invoke>',
  blocks: ['tool_call'],
  isPrefix: (p) => p === '',
  maxPrefix: 0,
  typedByAttribute: false,
  blockOnly: true,
};

/**
 * MiniMax's calls:
 * - M2 (and M2.5): `<minimax:tool_call><invoke name="get_weather"><parameter name="city">Oslo</parameter></invoke>
 *   </minimax:tool_call>`, several invokes per block; a bare `<invoke>` outside the block is left to the invoke finder;
 * - M3: the same block and invoke with the namespace token `]<]minimax[>[` before every tag, and parameters written as
 *   child elements named after them (`<city>Oslo</city>`; nested elements are objects, `<item>`s lists). The token is
 *   taken out (stripToken) and the block read as M2's is, its spans mapped back to the reply.
 * Values are converted by the offered tool's schema. A block or invoke the reply cut off is `truncated`. Interleaved
 * `<think>` reasoning is masked before, as for every family.
 */
export function findMinimaxCalls(text: string, ctx: FinderContext): Found {
  const found = findInvokeMarkup(text, ctx, M2);
  if (!text.includes(NAMESPACE)) return found;
  const stripped = stripToken(text, ctx.source, NAMESPACE);
  const m3 = findInvokeMarkup(stripped.text, { tools: ctx.tools, source: stripped.source }, M3);
  return mergeFound(found, mapFound(m3, stripped));
}
