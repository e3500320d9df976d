import type { ModelFormat } from '../../contracts/parse.js';
import type { FinderContext, Found } from '../found-call.js';
import { atReadLimit, emptyFound } from '../found-call.js';
import { skipSpace } from '../json-scan.js';
import { bodyCalls, escapedJson, finishRegion, JsonReach, quotedExample, TokenCursor } from './token-scan.js';

/** A family whose calls are a token followed by a JSON call body (and maybe a closing token). */
export interface TokenBodySpec {
  shape: ModelFormat;
  /** The token that opens a body. */
  open: string;
  /** A token that must follow `open` (after optional space) for the body to be a call (InternLM's `<|plugin|>`). */
  follow?: string;
  /** The token that closes a body, if the format has one. */
  close?: string;
  /** Whether a missing `close` means the reply was cut (false when `close` is a stop token servers may strip). */
  closeRequired: boolean;
  /** Whether the open token at `at` stands where the format writes it (default: anywhere). */
  openAt?: (text: string, at: number) => boolean;
  /** Whether the body may open right after the token with no space between (default: space allowed). */
  adjacent?: boolean;
  /** Whether the body at `i` opens a call (default: `{` or `[`). */
  bodyAt?: (text: string, i: number) => boolean;
  /** The body's call objects are keyed by the tool's name (Apertus). */
  nameKeyed?: boolean;
  /** A body cut off by the end of the reply may be a python call list left open (closed and read up to the cut). */
  pythonCut?: boolean;
}

/**
 * Calls of a family whose calls are `OPEN [FOLLOW] body [CLOSE]`, the body a JSON call object or list (bodyCalls). A
 * body runs no further than the next open token; a token followed by anything but `{` or `[` is prose that mentions
 * it (no call, no attempt). The region runs from the open token to the closing token, or to the end of the JSON when
 * it has none; a missing required closing token flags the calls `truncated`. Linear: indexOf walks with cursors.
 */
export function findTokenBodies(text: string, ctx: FinderContext, spec: TokenBodySpec): Found {
  const found = emptyFound();
  if (!text.includes(spec.open)) return found;
  const cursor = new TokenCursor(text, spec.close ? [spec.open, spec.close] : [spec.open]);
  const reach = new JsonReach(ctx.source);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = cursor.next(0, from);
    if (start < 0 || atReadLimit(found, spec.open, start, text.length, ++candidates)) break;
    const afterOpen = start + spec.open.length;
    from = afterOpen;
    if (spec.openAt && !spec.openAt(text, start)) continue;
    const next = cursor.next(0, afterOpen);
    const bound = next < 0 ? text.length : next;
    let bodyStart = afterOpen;
    if (spec.follow) {
      const t = skipSpace(text, afterOpen, bound);
      if (!text.startsWith(spec.follow, t)) continue;
      bodyStart = t + spec.follow.length;
    }
    const i = spec.adjacent ? bodyStart : skipSpace(text, bodyStart, bound);
    if (i >= bound) continue;
    if (spec.bodyAt ? !spec.bodyAt(text, i) : text[i] !== '{' && text[i] !== '[') continue;
    if (escapedJson(ctx.source, i)) continue;
    const limit = reach.limit(i, bound);
    const body = bodyCalls(ctx, i, limit, {
      atEnd: spec.pythonCut === true && limit >= text.length,
      nameKeyed: spec.nameKeyed === true,
      ...(spec.close ? { close: spec.close } : {}),
    });
    // the closing token belongs to this call when no other call opens before it
    const closeAt = spec.close ? cursor.next(1, body.end) : -1;
    const nextOpen = cursor.next(0, body.end);
    const closed = closeAt >= 0 && (nextOpen < 0 || closeAt < nextOpen);
    const end = closed ? closeAt + (spec.close ?? '').length : body.end;
    const span: [number, number] = [start, end];
    from = end;
    if (quotedExample(found, text, span, `a ${spec.open} call`)) continue;
    finishRegion(found, body.found, spec.shape, span, spec.closeRequired && !closed);
  }
  return found;
}
