import { StringValues } from './json-scan.js';
import { ToolCallRegions } from './xml-tags.js';

/**
 * Reasoning blocks: calls inside them are not calls (Qwen-Agent ignores them; verl#4757 shows the bug). Besides the
 * common names, Seed-OSS writes `<seed:think>`, Hunyuan's shipping tokenizer `<think:opensource>` and K2 Horizon
 * `<ifm|think>` (and its faster variants).
 */
const TAGS = [
  'think',
  'thinking',
  'reasoning',
  'seed:think',
  'think:opensource',
  'ifm|think',
  'ifm|think_fast',
  'ifm|think_faster',
] as const;

/**
 * Spans `[start, end)` of `<think>…</think>` blocks (and of the other TAGS). An unclosed block runs to the end of the
 * reply; a closing tag with no opening tag (templates that pre-fill `<think>`) makes everything before it reasoning.
 *
 * A think tag is a reasoning marker only where it stands outside a call's text, so a call whose argument holds
 * `</think>` (a file about reasoning models, a chat log) is neither erased nor swallowed:
 * - not inside a closed `<tool_call>…</tool_call>` region (ToolCallRegions: a JSON body is read to its end, strings
 *   known, so the region is the call's; a call left unclosed protects nothing, since reasoning may hold a draft);
 * - not inside a double-quoted string value (StringValues: opened on the tag's line while a `{`, `[` or `(` was
 *   open), which is how bare JSON, fenced JSON and python calls hold it. Single-quoted python strings are not
 *   known (apostrophes in prose would flip them), nor raw-text parameter values outside a `<tool_call>`.
 * Linear: indexOf scans for the tags, one pass for the strings, one for the `<tool_call>` regions.
 */
export function findThinkBlocks(text: string): Array<[number, number]> {
  if (!text.includes('<')) return [];
  const lower = text.toLowerCase();
  // per tag name, its open tags then its close tags, each list in text order
  const lists: number[][] = [];
  for (const tag of TAGS) lists.push(positions(lower, `<${tag}>`), positions(lower, `</${tag}>`));
  if (lists.every((l) => l.length === 0)) return [];
  const markers = reasoningMarkers(text, lower, lists);
  const spans: Array<[number, number]> = [];
  for (let t = 0; t < TAGS.length; t++) {
    const openLen = TAGS[t]!.length + 2;
    const closeLen = openLen + 1;
    const opens = markers[2 * t] as number[];
    const closes = markers[2 * t + 1] as number[];
    let o = 0;
    let c = 0;
    let from = 0;
    const firstClose = closes[0];
    if (firstClose !== undefined && (opens.length === 0 || firstClose < (opens[0] as number))) {
      from = firstClose + closeLen;
      spans.push([0, from]);
    }
    for (;;) {
      while (o < opens.length && (opens[o] as number) < from) o++;
      const s = opens[o];
      if (s === undefined) break;
      while (c < closes.length && (closes[c] as number) < s + openLen) c++;
      const e = closes[c];
      const end = e === undefined ? text.length : e + closeLen;
      spans.push([s, end]);
      from = end;
    }
  }
  return mergeSpans(spans);
}

function positions(lower: string, token: string): number[] {
  const out: number[] = [];
  for (let at = lower.indexOf(token); at >= 0; at = lower.indexOf(token, at + token.length)) out.push(at);
  return out;
}

/**
 * The tags of each list that mark reasoning: those outside `<tool_call>` regions and string values
 * (findThinkBlocks). The lists are walked together in text order, as StringValues needs.
 */
function reasoningMarkers(text: string, lower: string, lists: number[][]): number[][] {
  const hasCalls = lower.includes('<tool_call>');
  // no string value and no call to be inside of: every tag marks reasoning
  if (!hasCalls && !text.includes('"')) return lists;
  const regions: Array<[number, number]> = [];
  if (hasCalls) {
    const walk = new ToolCallRegions(text, text);
    for (let r = walk.next(); r; r = walk.next()) if (r.closed) regions.push([r.start, r.end]);
  }
  const strings = new StringValues(text);
  const out: number[][] = lists.map(() => []);
  const next = lists.map(() => 0);
  let r = 0;
  for (;;) {
    let list = -1;
    let at = Number.POSITIVE_INFINITY;
    for (let l = 0; l < lists.length; l++) {
      const p = (lists[l] as number[])[next[l] as number];
      if (p !== undefined && p < at) {
        at = p;
        list = l;
      }
    }
    if (list < 0) break;
    next[list]!++;
    // a region's quotes and brackets are its own (as ToolCallRegions reads them)
    for (let region = regions[r]; region && region[1] <= at; region = regions[++r]) {
      strings.inside(region[0]);
      strings.skip(region[1]);
    }
    const region = regions[r];
    if (region && region[0] <= at) continue;
    if (!strings.inside(at)) out[list]!.push(at);
  }
  return out;
}

/** Sorts and merges overlapping spans. */
export function mergeSpans(spans: Array<[number, number]>): Array<[number, number]> {
  if (spans.length === 0) return [];
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Replaces the spans by spaces (same length, so positions stay valid for later scans). */
export function maskSpans(text: string, spans: Array<[number, number]>): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [s, e] of spans) {
    out += text.slice(at, s) + ' '.repeat(Math.max(0, e - s));
    at = e;
  }
  return out + text.slice(at);
}

/** The reply with reasoning blocks removed (for final-answer checks). */
export function stripThink(text: string): string {
  if (!text.includes('<')) return text;
  const spans = findThinkBlocks(text);
  let out = '';
  let at = 0;
  for (const [s, e] of spans) {
    out += text.slice(at, s);
    at = e;
  }
  return out + text.slice(at);
}
