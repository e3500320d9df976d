import type { Message } from '../../src/contracts/index.js';

/** One tool result as fed back to the model (native `tool` message or a `<tool_result>` block). */
export interface FedResult {
  name: string;
  content: string;
  isError: boolean;
}

// The feedback format is our own protocol (see src/runner/feedback.ts), so a small regex reads it back.
const RESULT_BLOCK = /<tool_result\s+name="([^"]*)"([^>]*)>([\s\S]*?)<\/tool_result>/g;

function blocksIn(text: string): FedResult[] {
  const out: FedResult[] = [];
  // most user messages are the task, with no block: skip the regex scan
  if (!text.includes('<tool_result')) return out;
  for (const m of text.matchAll(RESULT_BLOCK)) {
    out.push({
      name: unescapeAttr(m[1] ?? ''),
      content: (m[3] ?? '').trim(),
      isError: /error="true"/.test(m[2] ?? ''),
    });
  }
  return out;
}

function unescapeAttr(s: string): string {
  return s.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** True when the last message feeds tool results back (a `tool` message, or a user message with `<tool_result`). */
export function isAfterResults(messages: Message[]): boolean {
  const last = messages.at(-1);
  if (!last) return false;
  return last.role === 'tool' || (last.role === 'user' && last.content.includes('<tool_result'));
}

/** The results of the latest batch: trailing `tool` messages, or the blocks of the last user message. */
export function latestResults(messages: Message[]): FedResult[] {
  const last = messages.at(-1);
  if (!last) return [];
  if (last.role === 'user') return blocksIn(last.content);
  const out: FedResult[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'tool') break;
    out.unshift({ name: m.name, content: m.content, isError: m.isError === true });
  }
  return out;
}

/**
 * Whether a user message is the user speaking, not tool results fed back: in a conversation of several user messages,
 * each one starts a new task.
 */
export function isUserPrompt(m: Message): boolean {
  return m.role === 'user' && !m.content.startsWith('<tool_result');
}

/**
 * Every result fed back so far, in order (how many calls were already executed). With `sinceLastPrompt`, only those
 * after the latest user message (the results of the task being answered).
 */
export function allResults(messages: Message[], sinceLastPrompt = false): FedResult[] {
  const out: FedResult[] = [];
  let from = 0;
  if (sinceLastPrompt) {
    for (let i = messages.length - 1; i >= 0; i--) {
      if (isUserPrompt(messages[i] as Message)) {
        from = i + 1;
        break;
      }
    }
  }
  for (let i = from; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === 'tool') out.push({ name: m.name, content: m.content, isError: m.isError === true });
    else if (m.role === 'user') out.push(...blocksIn(m.content));
  }
  return out;
}
