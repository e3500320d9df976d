import { visible } from '../util/visible-text.js';

const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIAL_ALL = /[&<>"']/g;
const HTML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function htmlEntity(c: string): string {
  return HTML_ENTITY[c] as string;
}

/**
 * Escapes text for HTML element content and quoted attribute values. Every model-produced string goes through it:
 * one scan when nothing needs escaping (most strings), else one replace pass (not one per character kind). Control
 * characters (ESC, CR, NUL, C1, bidirectional overrides…) are shown as `\x1b`-style text, as on the terminal: a
 * browser would show nothing of them, and the file read with `cat` or `less` must not act on the terminal either.
 */
export function escapeHtml(text: string): string {
  const shown = visible(text);
  return HTML_SPECIAL.test(shown) ? shown.replace(HTML_SPECIAL_ALL, htmlEntity) : shown;
}
