import { type FinderContext, type Found, mergeFound } from '../found-call.js';
import { findInvokeMarkup, type InvokeDialect } from './invoke-xml.js';
import { findTokenBodies } from './token-bodies.js';

/** GigaChat 3.5's GCML markup: DSML's grammar with its own prefix (full-width bar, or `|` as proxies rewrite it). */
const GCML: InvokeDialect = {
  shape: 'gigachat',
  label: 'GigaChat GCML',
  blocks: ['tool_calls'],
  isPrefix: (p) => p === '｜GCML｜' || p === '|GCML|',
  maxPrefix: 6,
  typedByAttribute: true,
};

/**
 * GigaChat's calls:
 * - GigaChat 3: `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": …, "arguments": …}`, one JSON call object after
 *   the role `function call` (the message separator before it is the template's, left as text);
 * - GigaChat 3.5: GCML markup, `<｜GCML｜tool_calls><｜GCML｜invoke name="…"><｜GCML｜parameter name="…" string="true|false">
 *   …</｜GCML｜parameter></｜GCML｜invoke></｜GCML｜tool_calls>`, read as DeepSeek's DSML is (`string="false"` values are
 *   JSON, `string="true"` ones text).
 * A call the reply cut off is `truncated`.
 */
export function findGigachatCalls(text: string, ctx: FinderContext): Found {
  const v3 = findTokenBodies(text, ctx, { shape: 'gigachat', open: 'function call<|role_sep|>', closeRequired: false });
  if (!text.includes('GCML')) return v3;
  return mergeFound(v3, findInvokeMarkup(text, ctx, GCML));
}
