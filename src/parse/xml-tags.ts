import type { FinderContext, Found } from './found-call.js';
import { atReadLimit, emptyFound, isIntroducedAsExample } from './found-call.js';
import { callsInBody } from './json-body.js';
import { StringValues, scanTagValue, skipSpace } from './json-scan.js';
import { TagBodies } from './tag-bodies.js';

const OPEN = '<tool_call>';
/** A tool name on the body's first line and the `{` that follows it (as json-body.ts reads it). */
const NAME_LINE = /^[\p{L}_][\p{L}\p{N}_.:-]{0,199}[ \t]*\r?\n[ \t\r\n]*\{/u;
const CLOSE = '</tool_call';

/**
 * `<tool_call>{json}</tool_call>` calls (Hermes / case study 000). Several per reply; text around them is
 * fine. A close tag cut short (`</tool_call` without `>`), a missing close at the end of the reply, or the
 * next `<tool_call>` still ends a call, which is then flagged `truncated`. Tag-like text in a string value is
 * argument text (ToolCallRegions says how). Linear: indexOf and one bounded scan per body.
 */
export function findXmlTagCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes('<')) return found;
  const regions = new ToolCallRegions(text, ctx.source);
  let candidates = 0;
  for (;;) {
    const region = regions.next();
    if (!region || atReadLimit(found, '<tool_call>', region.start, text.length, ++candidates)) break;
    const { start, bodyStart, bodyEnd, end } = region;
    found.spans.push([start, end]);
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
      // `</tool_call` without its `>` still closes the call, flagged truncated
      truncated: !region.full,
      requireArgs: false,
      tools: ctx.tools,
    });
    for (const c of body.calls) {
      // a <function=…> body or a {"tool_calls": […]} wrapper keeps its shape: the tag is right, the call inside it is
      // not the protocol's (a Hermes detector reads "name" and "arguments" from the tag's JSON)
      if (c.shape === 'json' || c.shape === 'python-call') c.shape = 'xml-tags';
      c.span = [start, end];
    }
    found.calls.push(...body.calls);
    found.diagnostics.push(...body.diagnostics);
  }
  return found;
}

/** One `<tool_call>` region: `[start, end)` from the open tag through the close tag (or to where the call was cut). */
export interface ToolCallRegion {
  start: number;
  bodyStart: number;
  bodyEnd: number;
  end: number;
  /** A close tag ends the body (perhaps cut short: `</tool_call` without `>`). */
  closed: boolean;
  /** The close tag is whole. */
  full: boolean;
}

/**
 * The `<tool_call>` regions of a text, in order; shared by the finder and by the reasoning-tag rule (a `<think>` tag
 * inside a call is argument text). `text` is searched (lowercased: models write `<TOOL_CALL>` too); `source`, the
 * same text as written, is read for the bodies' string values.
 *
 * Tag-like text in a string value is not a tag:
 * - a body that is a JSON value (or a python list) ends where the value ends (strings known, scanTagValue), and the
 *   close tag is looked for after it, so `"…</tool_call>…"` or `"…<tool_call>…"` inside it neither ends the call
 *   nor starts another. The value gives up at a tag outside its strings (a call cut off before the next tag), and
 *   then, as for any other body, the first close tag, the next open tag or the end of the text ends it.
 * - an open tag inside a double-quoted string value of some other call (StringValues: `{"content": "<tool_call>…"}`
 *   in bare or fenced JSON) starts nothing; that call's reader keeps it as text.
 * The value scans together read at most about twice the text (then bodies end at tags alone), so a text of many
 * open tags each followed by an unclosed value stays linear.
 */
export class ToolCallRegions {
  private readonly lower: string;
  private readonly bodies: TagBodies;
  private readonly strings: StringValues;
  private from = 0;
  private scanBudget: number;

  constructor(
    private readonly text: string,
    private readonly source: string,
  ) {
    this.lower = text.toLowerCase();
    this.bodies = new TagBodies(this.lower, OPEN, CLOSE);
    this.strings = new StringValues(text);
    this.scanBudget = 2 * text.length + 10_000;
  }

  next(): ToolCallRegion | null {
    const { text, source, lower } = this;
    for (;;) {
      const start = lower.indexOf(OPEN, this.from);
      if (start < 0) return null;
      this.from = start + OPEN.length;
      if (this.strings.inside(start)) continue;
      const bodyStart = start + OPEN.length;
      let after = bodyStart;
      let i = skipSpace(text, bodyStart);
      // a tool name on its own line before the JSON (name-json): the value after it is read the same way
      const line = NAME_LINE.exec(text.slice(i, i + 400));
      if (line) i += line[0].length - 1;
      if ((text[i] === '{' || text[i] === '[') && this.scanBudget > 0) {
        const scan = scanTagValue(source, i, (at) => isToolCallTag(source, at));
        this.scanBudget -= scan.end - i;
        if (scan.closed) after = scan.end;
      }
      const { bodyEnd, closed } = this.bodies.from(after);
      const full = closed && text[bodyEnd + CLOSE.length] === '>';
      const end = closed ? bodyEnd + CLOSE.length + (full ? 1 : 0) : bodyEnd;
      this.from = end;
      this.strings.skip(end);
      return { start, bodyStart, bodyEnd, end, closed, full };
    }
  }
}

/** Whether the `<` at `at` starts `<tool_call>` or `</tool_call` (any case). */
function isToolCallTag(source: string, at: number): boolean {
  const head = source.slice(at + 1, at + 11).toLowerCase();
  return head === 'tool_call>' || head === '/tool_call';
}
