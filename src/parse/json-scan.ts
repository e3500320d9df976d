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

/**
 * Where a JSON value (or python-literal list) in a tag's body ends, for a reader that must not take tag-like text in
 * its string values for a tag. Like scanBalanced, but a single quote opens a string too (jsonrepair reads
 * `{'a': 'x'}`, and python bodies quote with either), and the scan gives up, unclosed, at a `<` outside strings for
 * which `isTag` holds: a tag never stands inside a value, so one there means the value was cut off before it.
 */
export function scanTagValue(
  text: string,
  start: number,
  isTag: (at: number) => boolean,
  limit = text.length,
): ScanResult {
  let depth = 0;
  let quote = 0;
  for (let i = start; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === 92) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 34 || c === 39) quote = c;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth <= 0) return { end: i + 1, closed: depth === 0 };
    } else if (c === 60 && isTag(i)) return { end: i, closed: false };
  }
  return { end: limit, closed: false };
}

/**
 * Tells, for positions asked in rising order, whether each lies inside a double-quoted string value: a string opened
 * on the same line (JSON and python strings hold no raw line break) while a `{`, `[` or `(` was open. That is how a
 * call's string argument holds tag-like text (`{"content": "…</think>…"}`, `f(text="<tool_call>")`); prose quoting
 * a word has no bracket open, so its tags still count. Brackets are counted outside strings across lines (a
 * pretty-printed call spans several; never below zero) and forgotten at a blank line (a paragraph's stray `(` does
 * not reach the next), quotes from the start of each line; a backslash escapes the next character inside a string.
 * Single quotes are not counted (apostrophes in prose would flip every line). One pass over the text in all.
 */
export class StringValues {
  private at = 0;
  private depth = 0;
  private inString = false;
  private openDepth = 0;
  /** Nothing but spaces since the last line break (or the start). */
  private blankLine = true;

  constructor(private readonly text: string) {}

  /** Whether `pos` (not below any position asked before) lies inside a string value. */
  inside(pos: number): boolean {
    const { text } = this;
    let { depth, inString, openDepth, blankLine } = this;
    let i = this.at;
    for (; i < pos; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        if (blankLine) depth = 0;
        inString = false;
        blankLine = true;
        continue;
      }
      if (blankLine && c !== 32 && c !== 9 && c !== 13) blankLine = false;
      if (inString) {
        if (c === 92) i++;
        else if (c === 34) inString = false;
      } else if (c === 34) {
        inString = true;
        openDepth = depth;
      } else if (c === 123 || c === 91 || c === 40) depth++;
      else if ((c === 125 || c === 93 || c === 41) && depth > 0) depth--;
    }
    // an escape at pos - 1 skipped past pos: the scan resumes after it
    this.at = i > pos ? i : pos;
    this.depth = depth;
    this.inString = inString;
    this.openDepth = openDepth;
    this.blankLine = blankLine;
    return inString && openDepth > 0;
  }

  /**
   * Passes over `[at, pos)` without reading it: a region another rule has read (a call's tags and body), whose
   * quotes and brackets say nothing about the text after it.
   */
  skip(pos: number): void {
    this.at = Math.max(this.at, pos);
  }
}
