import type { FinderContext, Found } from './found-call.js';
import { atReadLimit, emptyFound, isIntroducedAsExample } from './found-call.js';
import { callsInBody } from './json-body.js';
import { TagBodies } from './tag-bodies.js';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call';

/**
 * `<tool_call>{json}</tool_call>` calls (Hermes / case study 000). Several per reply; text around them is
 * fine. A close tag cut short (`</tool_call` without `>`), a missing close at the end of the reply, or the
 * next `<tool_call>` still ends a call, which is then flagged `truncated`. Linear: indexOf only.
 */
export function findXmlTagCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes('<')) return found;
  const lower = text.toLowerCase();
  const bodies = new TagBodies(lower, OPEN, CLOSE);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = lower.indexOf(OPEN, from);
    if (start < 0 || atReadLimit(found, '<tool_call>', start, text.length, ++candidates)) break;
    const bodyStart = start + OPEN.length;
    const { bodyEnd, closed } = bodies.from(bodyStart);
    // `</tool_call` without its `>` still closes the call, flagged truncated
    const full = closed && text[bodyEnd + CLOSE.length] === '>';
    const end = closed ? bodyEnd + CLOSE.length + (full ? 1 : 0) : bodyEnd;
    const truncated = !full;
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
    const body = callsInBody(ctx.source.slice(bodyStart, bodyEnd), bodyStart, {
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
