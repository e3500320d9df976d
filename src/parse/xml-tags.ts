import type { Found } from './found-call.js';
import { atCallLimit, emptyFound, isIntroducedAsExample } from './found-call.js';
import { callsInBody } from './json-body.js';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call';

/**
 * `<tool_call>{json}</tool_call>` calls (Hermes / case study 000). Several per reply; text around them is
 * fine. A close tag cut short (`</tool_call` without `>`), a missing close at the end of the reply, or the
 * next `<tool_call>` still ends a call, which is then flagged `truncated`. Linear: indexOf only.
 */
export function findXmlTagCalls(text: string): Found {
  const found = emptyFound();
  if (!text.includes('<')) return found;
  const lower = text.toLowerCase();
  let from = 0;
  // the next close tag is searched again only once we pass it, so many unclosed opens stay linear
  let close = -2;
  let candidates = 0;
  for (;;) {
    const start = lower.indexOf(OPEN, from);
    if (start < 0 || atCallLimit(found, '<tool_call>', start, text.length, ++candidates)) break;
    const bodyStart = start + OPEN.length;
    if (close === -2 || (close >= 0 && close < bodyStart)) close = lower.indexOf(CLOSE, bodyStart);
    const nextOpen = lower.indexOf(OPEN, bodyStart);
    let bodyEnd: number;
    let end: number;
    let truncated: boolean;
    if (close >= 0 && (nextOpen < 0 || close < nextOpen)) {
      bodyEnd = close;
      const full = text[close + CLOSE.length] === '>';
      end = close + CLOSE.length + (full ? 1 : 0);
      truncated = !full;
    } else {
      bodyEnd = nextOpen >= 0 ? nextOpen : text.length;
      end = bodyEnd;
      truncated = true;
    }
    found.spans.push([start, end]);
    from = end;
    if (isIntroducedAsExample(text, start)) {
      found.diagnostics.push({
        code: 'quoted-example',
        message: 'a <tool_call> shown as an example',
        span: [start, end],
      });
      continue;
    }
    const body = callsInBody(text.slice(bodyStart, bodyEnd), bodyStart, {
      attempt: true,
      truncated,
      requireArgs: false,
    });
    for (const c of body.calls) {
      // a <function=…> body keeps its shape: the tag is right, the call inside it is not the protocol's
      if (c.shape !== 'function-tags') c.shape = 'xml-tags';
      c.span = [start, end];
    }
    found.calls.push(...body.calls);
    found.diagnostics.push(...body.diagnostics);
  }
  return found;
}
