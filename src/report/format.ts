/** Shared formatting for the writers. */
export const pct = (x: number) => `${Math.round(x * 100)}%`;

export function rateText(pass: number, n: number, interval: [number, number]): string {
  return `${pct(pass / n)} (${pass}/${n}, ${pct(interval[0])}–${pct(interval[1])})`;
}

export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}…` : flat;
}

/** Markdown table cells must not break the table: escape pipes and flatten newlines. */
export function mdCell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

export function signedPts(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pts`;
}

/**
 * Untrusted text as one Markdown code span: on one line, cut to `max`, fenced by more backticks than any run inside
 * it (and padded when it starts or ends with one), so no character of it is read as Markdown or HTML.
 */
export function mdCode(text: string, max = 200): string {
  const flat = oneLine(text, max);
  if (!flat) return '` `';
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
