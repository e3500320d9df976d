import { type ErrorCode, ToolgaugeError } from '../errors.js';
import { depthExceeds, MAX_JSON_DEPTH } from '../util/json-depth.js';

/**
 * How deep the maps and lists of a config, suite or tools file may nest (the outermost counting 1). A real suite nests
 * a dozen levels; past a few hundred, the YAML parser and the stages that walk a value run out of stack. The same
 * bound as a model's JSON values (MAX_JSON_DEPTH).
 */
export const MAX_FILE_DEPTH = MAX_JSON_DEPTH;

/** The error for a file that nests too deep: where (`file:line:col: key`, or the file), and what to do. */
export function nestingError(code: ErrorCode, file: string, where: string): ToolgaugeError {
  return new ToolgaugeError(
    code,
    `${where}: nests deeper than ${MAX_FILE_DEPTH} levels of maps and lists inside one another; toolgauge reads at most ${MAX_FILE_DEPTH}: flatten the value (or write it as a JSON string)`,
    { file },
  );
}

/** The path to the first value nested deeper than MAX_FILE_DEPTH, or undefined. Explicit stack: safe at any depth. */
export function tooDeepPath(data: unknown): PropertyKey[] | undefined {
  if (!depthExceeds(data, MAX_FILE_DEPTH)) return undefined;
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: data, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: PropertyKey[] };
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_FILE_DEPTH) return path;
    const entries: [PropertyKey, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value);
    for (const [k, v] of entries) stack.push({ value: v, path: [...path, k] });
  }
  return undefined;
}

/**
 * Where a YAML (or JSON) text first nests deeper than MAX_FILE_DEPTH, by a scan of its text: the indentation levels
 * open at each line, the `- ` entries that start on it, and the flow brackets open outside quotes. An estimate (it may
 * count a level or two a YAML parser would not), made before the located parser reads a file: that parser recurses
 * once per level, and a document thousands of levels deep exhausts the stack in the middle of a regular expression's
 * compilation, which V8 cannot recover from (the process dies "out of memory"). Undefined when within the bound.
 */
export function textTooDeep(text: string): { line: number; col: number } | undefined {
  const indents: number[] = [];
  let flow = 0;
  let lineNo = 0;
  for (const line of text.split('\n')) {
    lineNo++;
    let i = 0;
    while (line[i] === ' ') i++;
    if (i >= line.length || line[i] === '#' || line[i] === '\r') continue;
    if (flow === 0) {
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= i) indents.pop();
      indents.push(i);
    }
    let entries = 0;
    while (flow === 0 && line[i] === '-' && (line[i + 1] === ' ' || i + 1 === line.length)) {
      entries++;
      i += 2;
      while (line[i] === ' ') i++;
    }
    if (indents.length + entries > MAX_FILE_DEPTH) return { line: lineNo, col: i + 1 };
    let quote: string | undefined;
    for (; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#' && line[i - 1] === ' ') break;
      else if (c === '[' || c === '{') {
        if (++flow + indents.length + entries > MAX_FILE_DEPTH) return { line: lineNo, col: i + 1 };
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
  }
  return undefined;
}
