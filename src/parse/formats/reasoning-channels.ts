import { CHANNEL, harmonyMessages, recipientOf } from './harmony.js';
import { TokenCursor } from './token-scan.js';

/** A family's reasoning markup: an open and a close token. */
interface Pair {
  open: string;
  close: string;
  /** Where an unclosed block ends when not at the end of the text: before the first of these tokens after it. */
  endsBefore?: string;
  /** A token that ends the block (not part of it) wherever it comes first, closed or not: the next message's start. */
  boundary?: string;
}

const PAIRS: readonly Pair[] = [
  // Command R7B / Command A
  { open: '<|START_THINKING|>', close: '<|END_THINKING|>' },
  // Gemma 4's thought channel (`<|channel>thought\n…<channel|>`); a call token ends it, as its reference parsers read
  { open: '<|channel>', close: '<channel|>', endsBefore: '<|tool_call>' },
  // Magistral
  { open: '[THINK]', close: '[/THINK]' },
  // Apertus
  { open: '<|inner_prefix|>', close: '<|inner_suffix|>' },
  // Kimi K3's think channel (XTML)
  { open: '<|open|>think<|sep|>', close: '<|close|>think<|sep|>' },
  // Muse Glimmer: a message the model addresses to itself
  { open: '<|start|>assistant to=self<|message|>', close: '<|eom|>', boundary: '<|start|>' },
  // Inkling's thinking block
  { open: '<|content_thinking|>', close: '<|end_message|>', boundary: '<|message_model|>' },
  // Solar Open: `<|end|>` also ends harmony messages, so a close without an open is not read as a prefilled block
  { open: '<|think|>', close: '<|end|>', boundary: '<|begin|>' },
];
const ANALYSIS = 'analysis';
const FUNCTIONS = 'functions.';

/**
 * Reasoning written in a model family's own channel markup rather than `<think>` tags: spans `[start, end)` whose
 * calls are reported as `call-in-think`, not calls. Linear; returns at once when the markup is absent.
 * - gpt-oss harmony: a message on the `analysis` channel, header to end token — unless its recipient is
 *   `functions.NAME`, which makes it a call whatever the channel;
 * - Command R7B / Command A `<|START_THINKING|>…<|END_THINKING|>`, Gemma 4 `<|channel>…<channel|>`, Magistral
 *   `[THINK]…[/THINK]`, Apertus `<|inner_prefix|>…<|inner_suffix|>`, Kimi K3 `<|open|>think<|sep|>…<|close|>think<|sep|>`:
 *   as `<think>` blocks are read, an unclosed block runs to the end of the reply (Gemma's to its first call token), and
 *   a closing token with no opening one (a template that opened the block in the prompt) makes everything before it
 *   reasoning;
 * - Muse Glimmer's message to itself (`<|start|>assistant to=self<|message|>…<|eom|>`), Inkling's
 *   `<|content_thinking|>…<|end_message|>` and Solar Open's `<|think|>…<|end|>`, each ending at the next message if it
 *   is not closed before.
 */
export function findReasoningChannels(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (text.includes(CHANNEL)) {
    for (const msg of harmonyMessages(text)) {
      if (channelOf(msg.header) === ANALYSIS && !recipientOf(msg.header).startsWith(FUNCTIONS)) {
        spans.push([msg.start, msg.end]);
      }
    }
  }
  for (const pair of PAIRS) {
    if (text.includes(pair.open) || text.includes(pair.close)) pairSpans(text, pair, spans);
  }
  return spans;
}

/** The channel a harmony header names: the word after `<|channel|>`. */
function channelOf(header: string): string {
  const at = header.indexOf(CHANNEL);
  if (at < 0) return '';
  return /^\s*([\w-]+)/.exec(header.slice(at + CHANNEL.length))?.[1] ?? '';
}

function pairSpans(text: string, pair: Pair, spans: Array<[number, number]>): void {
  const firstOpen = text.indexOf(pair.open);
  const firstClose = text.indexOf(pair.close);
  let from = 0;
  if (!pair.boundary && firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) {
    spans.push([0, firstClose + pair.close.length]);
    from = firstClose + pair.close.length;
  }
  // each token is searched forwards only (cursors), so many blocks, closed or not, stay linear
  const closes = new TokenCursor(text, [pair.close]);
  const stops =
    pair.endsBefore || pair.boundary ? new TokenCursor(text, [pair.boundary ?? pair.endsBefore ?? '']) : null;
  for (;;) {
    const s = text.indexOf(pair.open, from);
    if (s < 0) return;
    const after = s + pair.open.length;
    const e = closes.next(0, after);
    const stop = stops ? stops.next(0, after) : -1;
    let end = e < 0 ? text.length : e + pair.close.length;
    if (stop >= 0 && (pair.boundary ? e < 0 || stop < e : e < 0)) end = stop;
    spans.push([s, end]);
    from = Math.max(end, after);
  }
}
