/** Reasoning blocks: calls inside them are not calls (Qwen-Agent ignores them; verl#4757 shows the bug). */
const TAGS = ['think', 'thinking', 'reasoning'] as const;

/**
 * Spans `[start, end)` of `<think>…</think>` blocks (also `<thinking>`, `<reasoning>`). An unclosed block
 * runs to the end of the reply; a closing tag with no opening tag (templates that pre-fill `<think>`)
 * makes everything before it reasoning. Linear: indexOf scans only.
 */
export function findThinkBlocks(text: string): Array<[number, number]> {
  if (!text.includes('<')) return [];
  const lower = text.toLowerCase();
  const spans: Array<[number, number]> = [];
  for (const tag of TAGS) {
    const open = `<${tag}>`;
    const close = `</${tag}>`;
    const firstOpen = lower.indexOf(open);
    const firstClose = lower.indexOf(close);
    let from = 0;
    if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) {
      spans.push([0, firstClose + close.length]);
      from = firstClose + close.length;
    }
    for (;;) {
      const s = lower.indexOf(open, from);
      if (s < 0) break;
      const e = lower.indexOf(close, s + open.length);
      const end = e < 0 ? text.length : e + close.length;
      spans.push([s, end]);
      from = end;
    }
  }
  return mergeSpans(spans);
}

/** Sorts and merges overlapping spans. */
export function mergeSpans(spans: Array<[number, number]>): Array<[number, number]> {
  if (spans.length === 0) return [];
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Replaces the spans by spaces (same length, so positions stay valid for later scans). */
export function maskSpans(text: string, spans: Array<[number, number]>): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [s, e] of spans) {
    out += text.slice(at, s) + ' '.repeat(Math.max(0, e - s));
    at = e;
  }
  return out + text.slice(at);
}

/** The reply with reasoning blocks removed (for final-answer checks). */
export function stripThink(text: string): string {
  if (!text.includes('<')) return text;
  const spans = findThinkBlocks(text);
  let out = '';
  let at = 0;
  for (const [s, e] of spans) {
    out += text.slice(at, s);
    at = e;
  }
  return out + text.slice(at);
}
