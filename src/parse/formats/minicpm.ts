import type { FinderContext, Found } from '../found-call.js';
import { skipSpace } from '../json-scan.js';
import { findInvokeMarkup, type InvokeDialect } from './invoke-xml.js';

/** The tokens vLLM's MiniCPM template writes around the calls (LFM2 writes python calls between the same tokens). */
const START = '<|tool_call_start|>';
const END = '<|tool_call_end|>';

const MINICPM: InvokeDialect = {
  shape: 'minicpm',
  label: 'MiniCPM <function>',
  blocks: [],
  isPrefix: (p) => p === '',
  maxPrefix: 0,
  typedByAttribute: false,
  invoke: 'function',
  parameter: 'param',
};

/**
 * MiniCPM's calls: `<function name="get_weather"><param name="city">Oslo</param><param name="days">3</param></function>`,
 * several per reply, optionally between `<|tool_call_start|>` and `<|tool_call_end|>` (claimed with the call). A value
 * may be a CDATA section (`<![CDATA[multi-line text]]>`), read as written; other values are converted by the offered
 * tool's schema. A `<function>` without its close tag is `truncated`; Qwen's `<function=name>` is another format
 * (function-tags) and is not read here.
 */
export function findMinicpmCalls(text: string, ctx: FinderContext): Found {
  const found = findInvokeMarkup(text, ctx, MINICPM);
  if (found.calls.length > 0 && text.includes(START)) claimWrapper(text, found);
  return found;
}

/** The start token right before a call, and the end token right after it, belong to the call's markup. */
function claimWrapper(text: string, found: Found): void {
  for (const c of found.calls) {
    const [s, e] = c.span;
    let b = s;
    while (b > 0 && /\s/.test(text[b - 1] as string)) b--;
    if (text.startsWith(START, b - START.length)) found.spans.push([b - START.length, s]);
    const a = skipSpace(text, e, e + 200);
    if (text.startsWith(END, a)) found.spans.push([e, a + END.length]);
  }
}
