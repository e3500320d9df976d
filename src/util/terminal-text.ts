/** Control characters (C0, DEL, C1) and the bidirectional overrides that reorder what a terminal shows. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Untrusted text (what a tool or a model said) made safe to write to a terminal, on one line: every control character
 * and bidi override is written as its `\u` escape, so no escape sequence reaches the terminal and nothing is hidden.
 */
export function terminalText(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return cut.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
