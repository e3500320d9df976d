/**
 * Finds where a JSON object/array that starts at `start` ends, by counting brackets outside strings.
 * Hand-written because no JSON library reports where a value ends inside surrounding prose; it is one
 * linear pass with an explicit depth counter (no recursion, no regex), so adversarial input stays cheap.
 */
export interface ScanResult {
  /** Index just past the closing bracket, or the text length when the value never closes. */
  end: number;
  closed: boolean;
}

export function scanBalanced(text: string, start: number, limit = text.length): ScanResult {
  let depth = 0;
  let inString = false;
  let quote = '';
  for (let i = start; i < limit; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === quote) inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      quote = ch;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth <= 0) return { end: i + 1, closed: depth === 0 };
    }
  }
  return { end: limit, closed: false };
}

/**
 * Index of the first non-whitespace character at or after `i` (or `limit`). ASCII whitespace by char code (a regex
 * per character made a reply of masked regions, which are spaces, slow); other characters by `\s`, as before.
 */
export function skipSpace(text: string, i: number, limit = text.length): number {
  while (i < limit) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) i++;
    else if (c >= 128 && /\s/.test(text[i] as string)) i++;
    else break;
  }
  return i;
}
