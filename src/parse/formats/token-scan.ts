import type { ModelFormat } from '../../contracts/parse.js';
import type { FinderContext, Found, FoundCall } from '../found-call.js';
import { isIntroducedAsExample } from '../found-call.js';
import { parseJsonText } from '../json-args.js';
import { callsInBody } from '../json-body.js';
import { scanBalanced, skipSpace } from '../json-scan.js';

/** A tool name as models write it after a family's token (dots, dashes and colons as MCP servers spell names). */
export const TOOL_NAME = /^[\p{L}_][\p{L}\p{N}_.:-]*$/u;

/**
 * The earliest of several tokens at or after a position, for a finder that walks its text forwards. Each token's
 * next occurrence is searched again only once the walk has passed it, so a text of many tokens stays linear (as
 * TagBodies does for one open/close pair).
 */
export class TokenCursor {
  private readonly at: number[];
  private readonly from: number[];

  constructor(
    private readonly text: string,
    private readonly tokens: readonly string[],
  ) {
    this.at = tokens.map(() => -2);
    this.from = tokens.map(() => 0);
  }

  /** Where the token `k` next occurs at or after `from` (-1: nowhere). */
  next(k: number, from: number): number {
    let at = this.at[k] ?? -2;
    const searched = this.from[k] ?? 0;
    if (at === -2 || from < searched || (at >= 0 && at < from)) {
      at = this.text.indexOf(this.tokens[k] ?? '', from);
      this.at[k] = at;
      this.from[k] = from;
    }
    return at;
  }

  /** The first of the tokens at or after `from`: which one (its index) and where, or null. */
  first(from: number): { token: number; at: number } | null {
    let best: { token: number; at: number } | null = null;
    for (let k = 0; k < this.tokens.length; k++) {
      const at = this.next(k, from);
      if (at >= 0 && (best === null || at < best.at)) best = { token: k, at };
    }
    return best;
  }
}

/**
 * How far a JSON value after a family's token is read. A finder bounds each call by its next open token, but that
 * token may stand inside a string value of the call (a message that quotes the format): the value is read as far as
 * it goes (scanBalanced knows strings) when it closes, even past the bound. A value that never closes is read up to
 * the bound, and after the first such value every later one is too, so a reply of many unclosed values stays linear.
 */
export class JsonReach {
  private unbounded = true;

  constructor(private readonly source: string) {}

  /** The limit to read the value that opens at `i` (after space) up to, given the finder's `bound`. */
  limit(i: number, bound: number): number {
    if (!this.unbounded || bound >= this.source.length) return bound;
    const j = skipSpace(this.source, i, bound);
    const c = this.source[j];
    if (j >= bound || (c !== '{' && c !== '[')) return bound;
    const scan = scanBalanced(this.source, j);
    if (scan.closed) return Math.max(scan.end, bound);
    this.unbounded = false;
    return bound;
  }
}

/**
 * Whether the JSON at `i` (after space) is written escaped, as inside a JSON string (`{\"name\": …}`, `{\n`): a
 * backslash right after an opening brace never stands outside a string, so the token before it is quoted text in
 * another call's string value, not a call. Such a candidate is skipped unclaimed, so the call around it still reads.
 */
export function escapedJson(source: string, i: number): boolean {
  let j = skipSpace(source, i, i + 200);
  if (source[j] === '[') j = skipSpace(source, j + 1, j + 200);
  return source[j] === '{' && source[skipSpace(source, j + 1, j + 200)] === '\\';
}

/** JSON arguments read from the reply, or why they could not be. */
export type ArgsRead =
  | {
      ok: true;
      value: Record<string, unknown>;
      /** The arguments as written. */
      raw: string;
      /** Just past the arguments. */
      end: number;
      /** False when the text ended (or `limit` came) before the object closed. */
      closed: boolean;
      repaired: boolean;
      doubleEncoded: boolean;
    }
  | { ok: false; error: string; end: number };

/**
 * The JSON object of arguments that starts at the first non-space character at or after `from`, read no further
 * than `limit`. The object's end is found by scanBalanced, which knows strings, so a token, tag or fence written
 * inside a string value stays in it. Nothing but space before `limit` is no arguments (`{}`). An object cut off
 * before it closes is repaired (jsonrepair) and `closed` is false; a JSON string holding the object is decoded.
 */
export function readJsonArgs(source: string, from: number, limit: number): ArgsRead {
  const i = skipSpace(source, from, limit);
  if (i >= limit) return { ok: true, value: {}, raw: '', end: i, closed: true, repaired: false, doubleEncoded: false };
  const ch = source[i];
  let end = limit;
  let closed = true;
  if (ch === '{') {
    const scan = scanBalanced(source, i, limit);
    end = scan.end;
    closed = scan.closed;
  } else if (ch === '"') {
    ({ end, closed } = stringEnd(source, i, limit));
  } else {
    return { ok: false, error: 'the arguments are not a JSON object', end: i };
  }
  const raw = source.slice(i, end);
  const parsed = parseJsonText(raw);
  if (!parsed.ok) return { ok: false, error: parsed.error, end };
  const v = parsed.value;
  // jsonrepair makes a string of any prose: only an object is an argument list
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return { ok: false, error: 'the arguments are not a JSON object', end };
  }
  return {
    ok: true,
    value: v as Record<string, unknown>,
    raw,
    end,
    closed,
    repaired: parsed.repaired,
    doubleEncoded: parsed.doubleEncoded,
  };
}

/** Just past the JSON string that opens at `i`, or `limit` when it does not close before it. */
function stringEnd(text: string, i: number, limit: number): { end: number; closed: boolean } {
  for (let j = i + 1; j < limit; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '"') return { end: j + 1, closed: true };
  }
  return { end: limit, closed: false };
}

/** Records a region shown as an example ("for example: …"): a `quoted-example` diagnostic, claimed. True if so. */
export function quotedExample(found: Found, text: string, span: [number, number], label: string): boolean {
  if (!isIntroducedAsExample(text, span[0])) return false;
  found.diagnostics.push({ code: 'quoted-example', message: `${label} shown as an example`, span });
  found.spans.push(span);
  return true;
}

/** How bodyCalls reads a body. */
export interface BodyRead {
  /** The body runs to the end of the reply: a python call list the cut left open is closed and read up to the cut. */
  atEnd?: boolean;
  /** The body's call objects are keyed by the tool's name (Apertus). */
  nameKeyed?: boolean;
  /** The family's closing token: python calls followed by it (and space) read as the whole body. */
  close?: string;
}

/**
 * Reads the calls of a JSON call body a family's token announced (a call object, a list of them, or python calls),
 * through callsInBody, as an attempt: a body that does not read is a diagnostic. The body is `ctx.source` from
 * `bodyStart` to `bound`; JSON is read only as far as its value goes, python calls up to the closing token.
 * Returns the body's findings (shape and span for finishRegion to set) and where its calls end.
 */
export function bodyCalls(
  ctx: FinderContext,
  bodyStart: number,
  bound: number,
  how: BodyRead = {},
): { found: Found; end: number } {
  const body = ctx.source.slice(bodyStart, bound);
  const opts = { attempt: true, truncated: false, requireArgs: false, nameKeyed: how.nameKeyed === true };
  const closing = how.close ? { closeToken: how.close } : {};
  let found = callsInBody(body, bodyStart, { ...opts, ...closing });
  if (found.calls.length === 0 && how.atEnd) {
    const cut = callsInBody(body, bodyStart, { ...opts, ...closing, truncated: true });
    if (cut.calls.length > 0) found = cut;
  }
  let end = bodyStart;
  for (const c of found.calls) end = Math.max(end, c.span[1]);
  for (const d of found.diagnostics) end = Math.max(end, d.span?.[1] ?? end);
  return { found, end: end > bodyStart ? end : bound };
}

/**
 * Moves the calls and diagnostics of a body read by bodyCalls into `found` as one region `[start, end)`: every call
 * gets the family's shape and the region as span, `truncated` when the closing token is missing, and the region is
 * claimed.
 */
export function finishRegion(
  found: Found,
  body: Found,
  shape: ModelFormat,
  span: [number, number],
  truncated: boolean,
): void {
  for (const c of body.calls) {
    c.shape = shape;
    c.span = span;
    if (truncated) c.truncated = true;
    found.calls.push(c);
  }
  for (const d of body.diagnostics) found.diagnostics.push({ ...d, span });
  found.spans.push(span);
}

/**
 * Adds the call `name(args)` a family's markup announced, over the region `span` (claimed): a call (flagged
 * `truncated` when its closing token is missing or its arguments were cut off), or an `unparseable-arguments`
 * diagnostic when the arguments do not read.
 */
export function pushArgsCall(
  found: Found,
  shape: ModelFormat,
  name: string,
  args: ArgsRead,
  span: [number, number],
  opts: { truncated: boolean; id?: string },
): void {
  found.spans.push(span);
  if (!args.ok) {
    found.diagnostics.push({
      code: 'unparseable-arguments',
      message: `arguments of the ${shape} call ${name} do not parse: ${args.error}`,
      span,
    });
    return;
  }
  const call: FoundCall = {
    name,
    args: args.value,
    rawArgs: args.raw,
    shape,
    repaired: args.repaired,
    truncated: opts.truncated || !args.closed,
    doubleEncoded: args.doubleEncoded,
    span,
  };
  if (opts.id !== undefined) call.id = opts.id;
  found.calls.push(call);
}
