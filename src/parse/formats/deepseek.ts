import {
  atReadLimit,
  emptyFound,
  type FinderContext,
  type Found,
  type FoundCall,
  isIntroducedAsExample,
  mergeFound,
} from '../found-call.js';
import { parseJsonText } from '../json-args.js';
import { skipSpace } from '../json-scan.js';
import { maskSpans, mergeSpans } from '../think-blocks.js';
import { findInvokeMarkup, type InvokeDialect } from './invoke-xml.js';
import { TokenCursor } from './token-scan.js';

/** DeepSeek V3.2's DSML markup (V4 names its block `tool_calls`); the bar is U+FF5C, or `|` as proxies rewrite it. */
const DSML: InvokeDialect = {
  shape: 'deepseek',
  label: 'DeepSeek DSML',
  blocks: ['function_calls', 'tool_calls'],
  isPrefix: (p) => p === '｜DSML｜' || p === '|DSML|',
  maxPrefix: 6,
  typedByAttribute: true,
};

type Kind = 'calls-begin' | 'calls-end' | 'call-begin' | 'sep' | 'call-end';

/** DeepSeek's tool tokens by their word, separators normalised to `_` (see tokenAt). */
const WORDS: ReadonlyMap<string, Kind> = new Map([
  ['tool_calls_begin', 'calls-begin'],
  ['tool_calls', 'calls-begin'],
  ['tool_calls_end', 'calls-end'],
  ['tool_call_begin', 'call-begin'],
  ['tool_sep', 'sep'],
  ['tool_call_end', 'call-end'],
]);

/** A tool name as DeepSeek writes it after its token (dots, dashes and colons as MCP servers spell names). */
const NAME = /^[\p{L}_][\p{L}\p{N}_.:-]*$/u;
/** The longest token word read (`tool▁calls▁begin` and its spellings). */
const MAX_WORD = 24;
/** A name cut off by the end of the reply is looked for in at most this many characters. */
const MAX_NAME = 200;

interface Token {
  kind: Kind;
  start: number;
  end: number;
}

/**
 * DeepSeek's tool calls written as text:
 * - V3 / R1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` then a ```` ```json ```` fence
 *   holding the arguments, `<｜tool▁call▁end｜>`, …, `<｜tool▁calls▁end｜>` (the fence belongs to the call: this
 *   finder runs before the fence finder, so it is not a markdown-wrapped call);
 * - V3.1: `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>`;
 * - V3.2 / V4: DSML markup `<｜DSML｜function_calls>` (or `tool_calls`) holding `<｜DSML｜invoke name="…">` and
 *   `<｜DSML｜parameter name="…" string="true|false">`, read by the invoke markup reader: `string="false"` values are
 *   JSON, `string="true"` ones text as written.
 * Spellings: the tokenizer's tokens use the full-width bar U+FF5C and `▁` U+2581. The block opener is also read as the
 * reference parsers read it (`tool_calls_begin`, `tool calls begin`, a markdown-escaped `tool\_calls\_begin`, and the
 * short `tool▁calls`), and `_` for `▁` in every token. An ASCII `|` for the bar is read with `▁` only (as replies
 * passed through a proxy that rewrites the bar carry it): `<|tool_call_begin|>` with ASCII bars and underscores is
 * Kimi K2's token, not DeepSeek's. DSML is read with either bar.
 *
 * A call is a call token, a tool name, the separator token and its arguments; a block opener or call token that prose
 * merely mentions (no name and separator after it) is not one. A call without its end token (the reply cut off, or the
 * next call began) is flagged truncated, its arguments repaired if need be; one cut before its separator, after a
 * name, is a `wrong-shape` attempt. Linear: TokenCursor only.
 */
export function findDeepSeekCalls(text: string, ctx: FinderContext): Found {
  const tokens =
    text.includes('tool') && (text.includes('<｜') || text.includes('<|')) ? findTokenCalls(text, ctx) : emptyFound();
  if (!text.includes('DSML')) return tokens;
  const rest = tokens.spans.length > 0 ? maskSpans(text, mergeSpans(tokens.spans)) : text;
  return mergeFound(tokens, findInvokeMarkup(rest, ctx, DSML));
}

function findTokenCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  const tokens = new TokenWalk(text);
  let from = 0;
  let candidates = 0;
  for (;;) {
    let t = tokens.next(from);
    while (t && t.kind !== 'calls-begin' && t.kind !== 'call-begin') t = tokens.next(t.end);
    if (!t) break;
    const start = t.start;
    let call: Token | undefined = t;
    if (t.kind === 'calls-begin') {
      call = tokens.next(t.end);
      // the block opener mentioned in prose: only space may come between it and its first call
      if (call?.kind !== 'call-begin' || skipSpace(text, t.end, call.start) < call.start) {
        from = t.end;
        continue;
      }
    }
    if (!isCallStart(text, call)) {
      from = call.end;
      continue;
    }
    if (atReadLimit(found, 'DeepSeek tool calls', start, text.length, ++candidates)) break;
    // an example's calls are read (to know where it ends) and dropped
    const example = isIntroducedAsExample(text, start);
    const into = example ? emptyFound() : found;
    let end = call.start;
    let next: Token | undefined = call;
    let calls = 0;
    while (next && next.kind === 'call-begin' && isCallStart(text, next)) {
      // each further call of a block is a region of its own for the read limit
      if (calls++ > 0 && atReadLimit(found, 'DeepSeek tool calls', next.start, text.length, ++candidates)) {
        next = undefined;
        end = text.length;
        break;
      }
      const read = readCall(text, ctx, tokens, next, into);
      end = read.end;
      next = tokens.next(end);
      // only space between a call and the next call (or the block's end token) keeps the block going
      if (next && skipSpace(text, end, next.start) < next.start) next = undefined;
    }
    if (next && next.kind === 'calls-end') end = next.end;
    found.spans.push([start, end]);
    if (example) {
      found.diagnostics.push({
        code: 'quoted-example',
        message: 'DeepSeek tool-call tokens shown as an example',
        span: [start, end],
      });
    }
    from = end;
  }
  return found;
}

/** A call token followed by a tool name (and, unless the reply ends first, the separator token). */
function isCallStart(text: string, call: Token): boolean {
  const head = text.slice(call.end, call.end + MAX_NAME);
  const lt = head.indexOf('<');
  const name = (lt < 0 ? head : head.slice(0, lt)).trim();
  if (!NAME.test(name)) return false;
  // a name cut off by the end of the reply still announces a call
  return lt >= 0 || call.end + head.length >= text.length;
}

function readCall(text: string, ctx: FinderContext, tokens: TokenWalk, call: Token, found: Found): { end: number } {
  // the name runs to the first `<` (isCallStart checked it); the separator token must be that `<`
  const lt = text.slice(call.end, call.end + MAX_NAME).indexOf('<');
  const nameEnd = lt < 0 ? Math.min(text.length, call.end + MAX_NAME) : call.end + lt;
  const header = ctx.source.slice(call.end, nameEnd).trim();
  const sep = tokens.next(call.end);
  if (sep?.kind !== 'sep' || sep.start !== nameEnd) {
    const end = sep?.kind === 'call-end' && sep.start === nameEnd ? sep.end : nameEnd;
    found.diagnostics.push({
      code: 'wrong-shape',
      message: `DeepSeek tool call ${header} has no <｜tool▁sep｜> before its arguments`,
      span: [call.start, end],
    });
    return { end };
  }
  const close = tokens.next(sep.end);
  const closed = close?.kind === 'call-end';
  const argsEnd = close ? close.start : text.length;
  const end = closed && close ? close.end : argsEnd;
  const span: [number, number] = [call.start, end];
  // the body is markup a finder before this one read (Step3's `<steptml:invoke>` between DeepSeek-style tokens): the
  // tokens are its wrapper, not a call of their own
  if (text.slice(sep.end, argsEnd).trim() === '' && ctx.source.slice(sep.end, argsEnd).trim() !== '') return { end };
  let name = header;
  let argsText = ctx.source.slice(sep.end, argsEnd);
  // V3 / R1: `function<｜tool▁sep｜>NAME\n```json …`; the type is `function`, the name on the line after the separator
  if (header === 'function') {
    const nl = argsText.indexOf('\n');
    const line = (nl < 0 ? argsText : argsText.slice(0, nl)).trim();
    if (NAME.test(line) && (nl < 0 || /^\s*(?:```|\{)/.test(argsText.slice(nl + 1, nl + 40)))) {
      name = line;
      argsText = nl < 0 ? '' : argsText.slice(nl + 1);
    }
  }
  const args = readArgs(argsText);
  if (!args.ok) {
    found.diagnostics.push({
      code: 'unparseable-arguments',
      message: `arguments of DeepSeek tool call ${name} do not parse: ${args.error}`,
      span,
    });
    return { end };
  }
  const c: FoundCall = {
    name,
    args: args.value,
    rawArgs: args.raw,
    shape: 'deepseek',
    repaired: args.repaired,
    truncated: !closed,
    doubleEncoded: args.doubleEncoded,
    span,
  };
  found.calls.push(c);
  return { end };
}

type Args =
  | { ok: true; value: object; raw: string; repaired: boolean; doubleEncoded: boolean }
  | { ok: false; error: string };

/** The arguments object, inside a ```` ```json ```` fence (V3 / R1) or bare (V3.1); nothing written is `{}`. */
function readArgs(written: string): Args {
  let raw = written.trim();
  if (raw.startsWith('```')) {
    const nl = raw.indexOf('\n');
    raw = nl < 0 ? '' : raw.slice(nl + 1);
    const fence = raw.lastIndexOf('```');
    if (fence >= 0 && raw.slice(fence + 3).trim() === '') raw = raw.slice(0, fence);
    raw = raw.trim();
  }
  if (raw === '') return { ok: true, value: {}, raw, repaired: false, doubleEncoded: false };
  const parsed = parseJsonText(raw);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const v = parsed.value;
  // jsonrepair makes a string of any prose: only an object is an argument list
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: 'not a JSON object' };
  return { ok: true, value: v, raw, repaired: parsed.repaired, doubleEncoded: parsed.doubleEncoded };
}

/** DeepSeek's tool tokens in reply order, whichever bar and separator spelling they use. */
class TokenWalk {
  /** Token openers: 0 with the full-width bar, 1 with the ASCII one. */
  private readonly openers: TokenCursor;

  constructor(private readonly text: string) {
    this.openers = new TokenCursor(text, ['<｜', '<|']);
  }

  private last: { from: number; token: Token | undefined } | undefined;

  /**
   * The first DeepSeek tool token at or after `from`. The last answer is kept: asked again from no further than that
   * token, the answer is the same, and the openers that are not tokens before it are not tried again.
   */
  next(from: number): Token | undefined {
    const last = this.last;
    if (last && last.from <= from && (last.token === undefined || from <= last.token.start)) return last.token;
    let token: Token | undefined;
    for (let opener = this.openers.first(from); opener && !token; opener = this.openers.first(opener.at + 1)) {
      token = tokenAt(this.text, opener.at);
    }
    this.last = { from, token };
    return token;
  }
}

/** The token at `at` (`<｜word｜>` / `<|word|>`), or undefined when it is none of DeepSeek's tool tokens. */
function tokenAt(text: string, at: number): Token | undefined {
  // every tool token's word starts so; DSML tags and other families' tokens are passed over cheaply
  if (!text.startsWith('tool', at + 2)) return undefined;
  const bar = text[at + 1];
  const rel = text.slice(at + 2, at + 4 + MAX_WORD).indexOf(`${bar}>`);
  if (rel < 0) return undefined;
  const close = at + 2 + rel;
  const word = text.slice(at + 2, close);
  // ASCII bars only with DeepSeek's own `▁`: `<|tool_call_begin|>` is Kimi's token
  if (bar === '|' && !word.includes('▁')) return undefined;
  const kind = WORDS.get(word.replace(/\\_|[▁ _]/g, '_'));
  return kind ? { kind, start: at, end: close + 2 } : undefined;
}
