/**
 * Characters a terminal (or a reader) acts on rather than shows: C0 controls but tab and line feed, DEL, C1 controls
 * (U+009B is a one-character CSI on some terminals), the bidirectional overrides and isolates that reorder what is
 * shown (Trojan Source), and the Unicode line and paragraph separators.
 */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const ACTIVE_ALL = new RegExp(ACTIVE.source, 'g');
const ACTIVE_OR_NEWLINE = new RegExp(`${ACTIVE.source.slice(0, -1)}\\n]`, 'g');

/**
 * How one such character is shown: `\r`, `\n`, `\xHH` for the other C0 controls (ESC is `\x1b`), `\uHHHH` for DEL
 * and above. JSON.stringify writes C0 controls as escapes itself but DEL, C1 and the rest raw, and the `\u` form is
 * a valid JSON escape of the same character: JSON printed through {@link visible} (`--json`, `serve mcp` on stdio)
 * stays valid JSON with the same value.
 */
function shown(c: string): string {
  if (c === '\r') return '\\r';
  if (c === '\n') return '\\n';
  const code = c.charCodeAt(0);
  return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every character a terminal would act on made visible (see {@link shown}); line feeds and tabs are kept.
 * This is what reaches stdout and stderr from the CLI: a model reply, a tool result or a provider's error message
 * holding `ESC]0;title BEL` or `ESC[2K CR` cannot retitle the terminal or overwrite a line. Most text has none of
 * them and is returned as it is.
 */
export function visible(text: string): string {
  return ACTIVE.test(text) ? text.replace(ACTIVE_ALL, shown) : text;
}

/**
 * `text` as part of one line: as {@link visible}, and line feeds shown as `\n` too, so a value quoted in a message
 * (a tool name, a server's error) cannot start a line of its own, such as a fake `gate: passed`.
 */
export function visibleInline(text: string): string {
  return text.replace(ACTIVE_OR_NEWLINE, shown);
}

/**
 * Untrusted text quoted in a message on one line: runs of whitespace as one space, cut to `max` characters, and what a
 * terminal would act on made visible (as {@link visible}).
 */
export function visibleLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return visible(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
