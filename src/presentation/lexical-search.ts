import type { ToolDef } from '../contracts/tool.js';

/** Words too common in tool descriptions to tell tools apart. */
const STOP = new Set(
  'a an and are as at be by for from in into is it its of on or the this that to with you your will can may use used using given which when'.split(
    ' ',
  ),
);

/**
 * The words of a text as search compares them: identifiers split at `_`, `-`, `.`, `/` and camelCase, lower-cased,
 * common words dropped, a plural `s` cut (`files` → `file`). Letters of any script count as word characters.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  for (const raw of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOP.has(raw)) continue;
    out.push(raw.length > 3 && raw.endsWith('s') && !raw.endsWith('ss') ? raw.slice(0, -1) : raw);
  }
  return out;
}

/** Parameter names and descriptions of a tool's top-level parameters. */
function parameterText(tool: ToolDef): string {
  const props = tool.inputSchema.properties;
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return '';
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(props as Record<string, unknown>)) {
    parts.push(name);
    const d = (schema as { description?: unknown } | null)?.description;
    if (typeof d === 'string') parts.push(d);
  }
  return parts.join(' ');
}

/** The words a tool is found by: its name (counted three times: a name says most), description and parameters. */
export function toolWords(tool: ToolDef): string[] {
  const name = words(tool.name);
  return [...name, ...name, ...name, ...words(`${tool.description ?? tool.title ?? ''} ${parameterText(tool)}`)];
}

/** One tool found by a search, with its score (higher is better). */
export interface SearchHit {
  tool: ToolDef;
  score: number;
}

/**
 * Okapi BM25 over the tools' words (k1 1.2, b 0.75), the ranking lexical tool-search tools use. Deterministic: ties
 * go to the tool listed first. Hand-written: twenty lines, where a search library would bring an index format, a
 * tokenizer and options this needs none of.
 */
export class Bm25Index {
  private readonly docs: { tool: ToolDef; tf: Map<string, number>; length: number }[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(tools: readonly ToolDef[]) {
    this.docs = tools.map((tool) => {
      const tf = new Map<string, number>();
      const ws = toolWords(tool);
      for (const w of ws) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      return { tool, tf, length: ws.length };
    });
    this.avgLength = this.docs.reduce((n, d) => n + d.length, 0) / Math.max(1, this.docs.length);
  }

  search(query: string, k: number): SearchHit[] {
    const terms = [...new Set(words(query))];
    const n = this.docs.length;
    const hits: (SearchHit & { at: number })[] = [];
    for (const [at, d] of this.docs.entries()) {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / this.avgLength));
      }
      if (score > 0) hits.push({ tool: d.tool, score, at });
    }
    hits.sort((a, b) => b.score - a.score || a.at - b.at);
    return hits.slice(0, k).map(({ tool, score }) => ({ tool, score }));
  }
}

/** The longest pattern a regex search takes, and the most characters of a tool it tests. */
export const MAX_PATTERN = 200;
const MAX_TEXT = 1000;

/**
 * A pattern a model wrote, refused when it could take exponential time on a tool's text (nested quantifiers,
 * backreferences, lookarounds), since JavaScript's regular expressions cannot be given a time limit. Returns the
 * reason it is refused, or the compiled expression (case-insensitive).
 */
export function safePattern(given: string): RegExp | string {
  // Python's inline flag, which tool-search prompts often show: the search ignores case anyway
  const pattern = given.startsWith('(?i)') ? given.slice(4) : given;
  if (pattern.length === 0) return 'the pattern is empty';
  if (pattern.length > MAX_PATTERN) return `the pattern is longer than ${MAX_PATTERN} characters`;
  if (/\\[1-9]|\\k<|\(\?<?[=!]/.test(pattern)) return 'backreferences and lookarounds are not supported';
  if (unboundedRepeats(pattern) > MAX_REPEATS) {
    return `more than ${MAX_REPEATS} unbounded repetitions (*, +, {n,}) are not supported`;
  }
  if (nestedRepetition(pattern)) {
    return 'a repeated group holding a quantifier or an alternation (like (a+)+ or (a|ab)*) is not supported';
  }
  try {
    return new RegExp(pattern, 'iu');
  } catch (e) {
    return `not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** Unbounded repetitions a pattern may hold: each one multiplies the backtracking on a text that does not match. */
const MAX_REPEATS = 2;

/** The `*`, `+` and `{n,}` of a pattern, outside character classes and escapes. */
function unboundedRepeats(pattern: string): number {
  let n = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
    } else if (ch === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
    } else if (ch === '*' || ch === '+' || (ch === '{' && /^\{\d+,\}/.test(pattern.slice(i)))) {
      n++;
    }
  }
  return n;
}

/**
 * Whether a group that holds a quantifier or an alternation is itself repeated: the shape that backtracks
 * exponentially. A scan of the pattern's groups (escapes and character classes skipped), nested groups included.
 */
function nestedRepetition(pattern: string): boolean {
  const open: boolean[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
      continue;
    }
    if (ch === '(') open.push(false);
    else if (ch === ')') {
      const inner = open.pop() ?? false;
      const next = pattern[i + 1];
      if (inner && (next === '+' || next === '*' || next === '{')) return true;
      if (open.length > 0 && inner) open[open.length - 1] = true;
    } else if ((ch === '+' || ch === '*' || ch === '{' || ch === '|') && open.length > 0) {
      open[open.length - 1] = true;
    }
  }
  return false;
}

/** The tools whose name, description or parameters match `re`, names matching first, then in listed order. */
export function regexSearch(tools: readonly ToolDef[], re: RegExp, k: number): SearchHit[] {
  const hits: (SearchHit & { at: number })[] = [];
  for (const [at, tool] of tools.entries()) {
    if (re.test(tool.name)) hits.push({ tool, score: 2, at });
    else if (re.test(`${tool.description ?? ''} ${parameterText(tool)}`.slice(0, MAX_TEXT)))
      hits.push({ tool, score: 1, at });
  }
  hits.sort((a, b) => b.score - a.score || a.at - b.at);
  return hits.slice(0, k).map(({ tool, score }) => ({ tool, score }));
}

/** How often each word of a tool occurs (toolWords counted). */
export function wordCounts(tool: ToolDef): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of toolWords(tool)) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** The cosine of two word counts: 0 (no word shared) to 1 (the same words as often). */
export function cosine(x: ReadonlyMap<string, number>, y: ReadonlyMap<string, number>): number {
  let dot = 0;
  for (const [w, n] of x) dot += n * (y.get(w) ?? 0);
  const norm = (m: ReadonlyMap<string, number>) => Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  const d = norm(x) * norm(y);
  return d === 0 ? 0 : dot / d;
}

/** How much two tools' words overlap, 0 (nothing shared) to 1 (the same words): cosine of their word counts. */
export function similarity(a: ToolDef, b: ToolDef): number {
  return cosine(wordCounts(a), wordCounts(b));
}
