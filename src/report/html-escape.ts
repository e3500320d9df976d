const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIAL_ALL = /[&<>"']/g;
const HTML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function htmlEntity(c: string): string {
  return HTML_ENTITY[c] as string;
}

/**
 * Escapes text for HTML element content and quoted attribute values. Every model-produced string goes through it:
 * one scan when nothing needs escaping (most strings), else one replace pass (not one per character kind).
 */
export function escapeHtml(text: string): string {
  return HTML_SPECIAL.test(text) ? text.replace(HTML_SPECIAL_ALL, htmlEntity) : text;
}
