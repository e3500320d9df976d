import { atReadLimit, emptyFound, type FinderContext, type Found } from '../found-call.js';
import { escapedJson, pushArgsCall, quotedExample, readJsonArgs, TOOL_NAME, TokenCursor } from './token-scan.js';

export const START = '<|start|>';
export const CHANNEL = '<|channel|>';
export const MESSAGE = '<|message|>';
/** Tokens that end a message's content and belong to it. */
const CLOSERS = ['<|call|>', '<|end|>', '<|return|>'];
/** A header is short; a `<|message|>` further than this from the header's first token belongs to something else. */
const MAX_HEADER = 300;
const RECIPIENT = /\bto=([^\s<]+)/;
const FUNCTIONS = 'functions.';

/** One harmony message: where its header starts, its content, and where it ends. */
export interface HarmonyMessage {
  /** The header's first token (`<|start|>` or `<|channel|>`). */
  start: number;
  header: string;
  contentStart: number;
  /** Where the content ends (the closing token or the next header, or the end of the text). */
  contentEnd: number;
  /** Just past the message, its closing token included. */
  end: number;
  /** Ended by `<|call|>`, `<|end|>` or `<|return|>`. */
  closed: boolean;
}

/**
 * The harmony messages of a text (gpt-oss): `[<|start|>ROLE][ to=R]<|channel|>CHANNEL[ to=R][ TYPE|<|constrain|>TYPE]
 * <|message|>CONTENT` ending at `<|call|>`, `<|end|>`, `<|return|>`, the next `<|start|>` or `<|channel|>`, or the end
 * of the text (a reply cut off). Linear: the tokens are walked with one cursor; a header is at most 300 characters.
 */
export function* harmonyMessages(text: string): Generator<HarmonyMessage> {
  if (!text.includes(MESSAGE)) return;
  const heads = new TokenCursor(text, [START, CHANNEL]);
  const messages = new TokenCursor(text, [MESSAGE]);
  const closers = new TokenCursor(text, CLOSERS);
  let from = 0;
  for (;;) {
    const head = heads.first(from);
    if (!head) return;
    const m = messages.next(0, head.at);
    if (m < 0) return;
    // the header runs from its first token to <|message|>: `<|start|>ROLE<|channel|>…` or `<|channel|>…`; any other
    // header token before <|message|> begins another header (the first was prose or a broken message)
    let later = heads.first(head.at + 1);
    if (head.token === 0 && later && later.token === 1 && later.at < m) later = heads.first(later.at + 1);
    if (later && later.at < m) {
      from = later.at;
      continue;
    }
    if (m - head.at > MAX_HEADER) {
      from = head.at + 1;
      continue;
    }
    const contentStart = m + MESSAGE.length;
    const next = heads.first(contentStart);
    const close = closers.first(contentStart);
    const nextAt = next ? next.at : text.length;
    const closed = close !== null && close.at <= nextAt;
    const contentEnd = closed && close ? close.at : nextAt;
    const end = closed && close ? close.at + (CLOSERS[close.token] ?? '').length : contentEnd;
    yield { start: head.at, header: text.slice(head.at, m), contentStart, contentEnd, end, closed };
    from = Math.max(end, contentStart);
  }
}

/** The recipient a header names (`to=functions.get_weather`), or ''. */
export function recipientOf(header: string): string {
  return RECIPIENT.exec(header)?.[1] ?? '';
}

/**
 * gpt-oss harmony calls: a message whose recipient is `functions.NAME`, written before or after the channel
 * (`<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`, or
 * `<|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>{…}<|call|>`), on whatever channel, as
 * the reference parsers read them. Several per reply. The content is the JSON arguments; `<|call|>` is a stop token
 * a server may strip, so a call is `truncated` only when its arguments were cut off. Messages to other recipients
 * (built-in `browser.*`, `python`) and messages with no recipient are not calls and are not claimed; the `analysis`
 * channel is reasoning (reasoning-channels.ts).
 */
export function findHarmonyCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes(MESSAGE) || !text.includes('to=')) return found;
  let candidates = 0;
  for (const msg of harmonyMessages(text)) {
    const recipient = recipientOf(msg.header);
    if (!recipient.startsWith(FUNCTIONS) || escapedJson(ctx.source, msg.contentStart)) continue;
    if (atReadLimit(found, 'harmony', msg.start, text.length, ++candidates)) break;
    const name = recipient.slice(FUNCTIONS.length);
    const span: [number, number] = [msg.start, msg.end];
    if (!TOOL_NAME.test(name)) {
      found.spans.push(span);
      found.diagnostics.push({ code: 'wrong-shape', message: `harmony recipient ${recipient} names no tool`, span });
      continue;
    }
    if (quotedExample(found, text, span, 'a harmony call')) continue;
    const args = readJsonArgs(ctx.source, msg.contentStart, msg.contentEnd);
    pushArgsCall(found, 'harmony', name, args, span, { truncated: false });
  }
  return found;
}
