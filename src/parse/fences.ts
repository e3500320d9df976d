import { atReadLimit, type Found, type FoundCall, isIntroducedAsExample } from './found-call.js';
import { callsInBody } from './json-body.js';

export interface FencedCall extends FoundCall {
  /** Info string of the fence (`tool_call`, `json`, `xml`, `python`, `` for a bare fence). */
  fence: string;
  inline: boolean;
}

/** A fence or inline code span, whether or not it held a call. */
export interface FenceRegion {
  span: [number, number];
  fence: string;
  inline: boolean;
}

export interface FenceFound extends Found {
  text: string;
  calls: FencedCall[];
  regions: FenceRegion[];
}

/** Info strings that say "this block is a call": an unreadable body is still a call attempt. */
const CALL_FENCES = new Set(['tool_call', 'tool', 'function_call', 'tool_code']);

/**
 * Calls inside ```` ``` ```` fences (any info string; an unclosed fence runs to the end) and inside inline
 * backticks. Each body is read as a JSON call or python-call syntax. Calls with delimiters of their own
 * (`<tool_call>`, model tokens) were claimed before and are masked in `text`: parse/index.ts reports those inside a
 * fence as wrapped by it. Bodies are read from `text`, masked, so a claimed call is not read twice.
 */
export function findFencedCalls(text: string): FenceFound {
  const out: FenceFound = { text, calls: [], diagnostics: [], spans: [], regions: [] };
  let from = 0;
  let candidates = 0;
  for (;;) {
    const open = text.indexOf('```', from);
    if (open < 0 || atReadLimit(out, 'fenced', open, text.length, ++candidates)) break;
    let tick = open + 3;
    while (text[tick] === '`') tick++;
    const ticks = text.slice(open, tick);
    const nl = text.indexOf('\n', tick);
    const infoEnd = nl < 0 ? text.length : nl;
    const info = text.slice(tick, infoEnd).trim().split(/\s/)[0] ?? '';
    const bodyStart = Math.min(text.length, infoEnd + 1);
    const close = text.indexOf(ticks, bodyStart);
    const bodyEnd = close < 0 ? text.length : close;
    const end = close < 0 ? text.length : close + ticks.length;
    out.spans.push([open, end]);
    out.regions.push({ span: [open, end], fence: info.toLowerCase(), inline: false });
    addBody(out, text.slice(bodyStart, bodyEnd), bodyStart, [open, end], info.toLowerCase(), false, close < 0);
    from = end;
  }
  return out;
}

/** Inline code spans `` `…` `` on one line (run after fences are masked). */
export function findInlineCodeCalls(text: string): FenceFound {
  const out: FenceFound = { text, calls: [], diagnostics: [], spans: [], regions: [] };
  if (!text.includes('`')) return out;
  let from = 0;
  let candidates = 0;
  // the next line break, searched again only once we pass it (a long line of backticks stays linear)
  let nl = -2;
  for (;;) {
    const open = text.indexOf('`', from);
    if (open < 0) break;
    const close = text.indexOf('`', open + 1);
    if (close < 0) break;
    if (nl === -2 || (nl >= 0 && nl <= open)) nl = text.indexOf('\n', open + 1);
    if (nl >= 0 && nl < close) {
      from = nl + 1;
      continue;
    }
    const body = text.slice(open + 1, close);
    // Names alone (`read_data_from_excel`) are prose; only something call-shaped is worth reading.
    if (/[{(]/.test(body)) {
      if (atReadLimit(out, 'inline-code', open, text.length, ++candidates)) break;
      addBody(out, body, open + 1, [open, close + 1], '', true, false);
    }
    out.spans.push([open, close + 1]);
    out.regions.push({ span: [open, close + 1], fence: '', inline: true });
    from = close + 1;
  }
  return out;
}

function addBody(
  out: FenceFound,
  body: string,
  offset: number,
  span: [number, number],
  fence: string,
  inline: boolean,
  truncated: boolean,
): void {
  const attempt = !inline && CALL_FENCES.has(fence);
  const found = callsInBody(body, offset, { attempt, truncated, requireArgs: !attempt });
  if (inline) for (const c of found.calls) if (c.shape === 'json') c.shape = 'bare-json';
  if (isIntroducedAsExample(out.text, span[0]) && found.calls.length > 0) {
    out.diagnostics.push({
      code: 'quoted-example',
      message: `a call shown as an example in ${label(fence, inline)}`,
      span,
    });
    return;
  }
  for (const c of found.calls) {
    // Code samples such as `print("hi")` are not tool calls: BFCL-style calls use keyword arguments only.
    if (c.shape === 'python-call' && !attempt && Object.keys(c.args as object).some((k) => /^_\d+$/.test(k))) continue;
    out.calls.push({ ...c, span, fence, inline });
  }
  out.diagnostics.push(...found.diagnostics);
}

function label(fence: string, inline: boolean): string {
  return inline ? 'inline code' : `a \`\`\`${fence} fence`;
}
