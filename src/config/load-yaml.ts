import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { type ErrorCode, ToolgaugeError } from '../errors.js';
import { closest } from '../util/did-you-mean.js';
import { displayPath } from '../util/display-path.js';
import { isStackOverflow } from '../util/json-text.js';
import { type FastYamlBatch, parseYamlFast } from './fast-yaml.js';
import { nestingError, textTooDeep, tooDeepPath } from './nesting-limit.js';
import { keysAt } from './schema-keys.js';

type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;

/**
 * The YAML parser, loaded on first use (synchronously, from its CommonJS build): a config or suite written as JSON
 * never needs it, and loading it was an eighth of the CLI's start-up.
 */
function yaml(): YamlModule {
  yamlModule ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yamlModule;
}

/** A YAML (or JSON) text given on the command line, parsed; throws the parser's error on a bad one. */
export function parseYamlText(text: string): unknown {
  return yaml().parse(text, { maxAliasCount: MAX_YAML_ALIASES });
}

/** A path as users read it: `cases[3].expect.calls[0].tool`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(root)';
}

/** A problem found after the schema passed (a duplicate id, an unknown tool): where it is and what to do. */
export interface SemanticIssue {
  path: PropertyKey[];
  message: string;
  /** The path ends at a key that should not be there: locate the key itself, not its value. */
  key?: boolean;
}

/** Where a problem is: `file:line:col: path` of the node at a YAML path (or of its key, or its nearest parent). */
export type Locate = (path: readonly PropertyKey[], key?: boolean) => string;

/** A file's problems listed in one error, at most this many (the rest are counted): enough to fix a batch at once. */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * How many aliases a YAML document may expand (the yaml package's default, stated here so the error can quote it):
 * past it, a billion-laughs document would take the memory of the process.
 */
export const MAX_YAML_ALIASES = 100;

/**
 * One error for all of a file's problems: each on its own line, `file:line:col: path: message`, the first on the
 * first line (so one problem reads as one line), at most {@link MAX_LISTED_PROBLEMS} of them.
 */
export function problemsError(
  code: ErrorCode,
  file: string,
  issues: readonly SemanticIssue[],
  where: Locate,
): ToolgaugeError {
  const shown = displayPath(file);
  const lines = issues.slice(0, MAX_LISTED_PROBLEMS).map((i) => `${where(i.path, i.key)}: ${i.message}`);
  const rest = issues.length - MAX_LISTED_PROBLEMS;
  if (rest > 0) lines.push(`… and ${rest} more problem${rest > 1 ? 's' : ''} in ${shown}`);
  const message =
    lines.length > 1
      ? `${lines[0]}\n${lines
          .slice(1)
          .map((l) => `  ${l}`)
          .join('\n')}`
      : (lines[0] ?? shown);
  return new ToolgaugeError(code, message, { file });
}

export interface LoadedYaml<T> {
  data: T;
  /** `file:line:col: path` of the node at a YAML path (or of its key, or of its nearest existing parent). */
  locate: Locate;
}

/** What a semantic check returns: nothing, one problem or all of them. */
type CheckResult = SemanticIssue | readonly SemanticIssue[] | undefined;

function issuesOf(result: CheckResult): readonly SemanticIssue[] {
  if (result === undefined) return [];
  return Array.isArray(result) ? result : [result as SemanticIssue];
}

/**
 * Reads a YAML (or JSON) file and validates it with a zod schema, then with `check`. Every problem becomes one line
 * naming the file, the line:column of the offending node and the YAML path, and what would be valid; all of a
 * file's problems are listed in one error (up to {@link MAX_LISTED_PROBLEMS}).
 */
export function loadYamlFile<S extends z.ZodType>(
  file: string,
  schema: S,
  code: ErrorCode,
  check?: (data: z.infer<S>) => CheckResult,
): LoadedYaml<z.infer<S>> {
  return loadYaml(file, schema, code, check, true);
}

function loadYaml<S extends z.ZodType>(
  file: string,
  schema: S,
  code: ErrorCode,
  check: ((data: z.infer<S>) => CheckResult) | undefined,
  allowFast: boolean,
): LoadedYaml<z.infer<S>> {
  const shown = displayPath(file);
  const read = () => readText(file, code);
  if (allowFast) {
    const fast = parseFast(read());
    // JSON is YAML too, and JSON.parse is ~100x faster than the located YAML parser (1-2 ms per case): large generated
    // suites (BFCL imports, benchmarks) are written as JSON. Any problem falls through to the YAML path to locate it.
    if (fast.kind === 'json') {
      const valid = validJson(fast.data, schema, check);
      if (valid.ok) {
        let located: LoadedYaml<unknown> | undefined;
        const locate: Locate = (path, key) => {
          located ??= loadYaml(file, z.unknown(), code, undefined, false);
          return located.locate(path, key);
        };
        return { data: valid.data, locate };
      }
    }
    // The bulk of a YAML file goes through the fast parsers (the plain subset by hand, the rest by js-yaml; no
    // positions); the located parser (`yaml`) reads it only when they refuse it (a syntax error, an alias) or, one
    // batch of cases at a time, to locate a problem. The text is not kept meanwhile (a 100,000-case suite is ~45 MB as
    // a string): it is read again then.
    if (fast.kind === 'yaml') {
      let located: Located | undefined;
      const whole = (path: readonly PropertyKey[], key?: boolean) => {
        located ??= parseLocated(file, read(), code);
        return nodePosition(located.doc, located.lineCounter, path, 0, 0, key);
      };
      const where = batchLocator(read, fast.batches, whole);
      return validate(
        file,
        fast.data,
        schema,
        code,
        check,
        (path, key) => `${shown}${where(path, key)}: ${formatPath(path)}`,
      );
    }
  }
  const { doc, lineCounter, data } = parseLocated(file, read(), code);
  const locateFull: Locate = (path, key) =>
    `${shown}${nodePosition(doc, lineCounter, path, 0, 0, key)}: ${formatPath(path)}`;
  return validate(file, data, schema, code, check, locateFull);
}

function readText(file: string, code: ErrorCode): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : String(e);
    throw new ToolgaugeError(code === 'CONFIG_INVALID' ? 'CONFIG_NOT_FOUND' : code, `${displayPath(file)}: ${reason}`);
  }
}

/** A file's data by JSON.parse (text in braces) or the fast YAML parser; `none` when the located parser must read it. */
function parseFast(
  text: string,
):
  | { kind: 'json'; data: unknown }
  | { kind: 'yaml'; data: unknown; batches: readonly FastYamlBatch[] }
  | { kind: 'none' } {
  if (text.trimStart().startsWith('{')) {
    try {
      return { kind: 'json', data: JSON.parse(text) };
    } catch {
      // YAML in flow style, or broken: the YAML parsers decide
    }
  }
  const fast = parseYamlFast(text);
  return fast.ok ? { kind: 'yaml', data: fast.data, batches: fast.batches } : { kind: 'none' };
}

interface Located {
  doc: YamlDocument;
  lineCounter: YamlLineCounter;
  data: unknown;
}

/** The located parser on a whole file: a syntax error or an alias bomb is an error at file:line:col. */
function parseLocated(file: string, text: string, code: ErrorCode): Located {
  const shown = displayPath(file);
  const deep = textTooDeep(text);
  if (deep) throw nestingError(code, file, `${shown}:${deep.line}:${deep.col}`);
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = lineCounter.linePos(first.pos[0]);
    // the parser ran out of stack: the document nests far too deep (what it caught is not a syntax error)
    if (/call stack/i.test(first.message)) throw nestingError(code, file, `${shown}:${pos.line}:${pos.col}`);
    const msg = first.message.split('\n')[0] ?? first.message;
    throw new ToolgaugeError(code, `${shown}:${pos.line}:${pos.col}: YAML syntax error: ${msg}`);
  }
  try {
    return { doc, lineCounter, data: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) };
  } catch (e) {
    if (isStackOverflow(e)) throw nestingError(code, file, shown);
    // The yaml package throws a ReferenceError for an alias expanded too often (billion laughs) or one that names no
    // anchor: a fault of the file, not of toolgauge.
    if (!(e instanceof ReferenceError)) throw e;
    throw new ToolgaugeError(
      code,
      `${shown}: YAML aliases: ${e.message.split('\n')[0]} (at most ${MAX_YAML_ALIASES} alias expansions; write the values out or use fewer *aliases)`,
      { file },
    );
  }
}

/** Validates parsed data with the schema, then the check; every problem located by `locate`. */
function validate<S extends z.ZodType>(
  file: string,
  data: unknown,
  schema: S,
  code: ErrorCode,
  check: ((data: z.infer<S>) => CheckResult) | undefined,
  locate: Locate,
): LoadedYaml<z.infer<S>> {
  // Before anything walks the value: the first too-deep value, located by the top-level key that holds it.
  const deep = tooDeepPath(data);
  if (deep) throw nestingError(code, file, locate(deep.slice(0, 1)));
  // reportInput: zod 4 leaves the offending value out of an issue otherwise, and a wrong type would read as missing.
  const result = schema.safeParse(data, { reportInput: true });
  if (!result.success) {
    const issues = result.error.issues.flatMap((issue): SemanticIssue[] =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((k) => ({
            path: [...issue.path, k],
            key: true,
            message: unknownKey(k, keysAt(schema, issue.path)),
          }))
        : [{ path: issue.path, message: describeIssue(issue) }],
    );
    throw problemsError(code, file, issues, locate);
  }
  const problems = issuesOf(check?.(result.data));
  if (problems.length > 0) throw problemsError(code, file, problems, locate);
  return { data: result.data, locate };
}

type YamlDocument = ReturnType<YamlModule['parseDocument']>;
type YamlLineCounter = InstanceType<YamlModule['LineCounter']>;

/**
 * `:line:col` of the deepest node that exists for the path (a missing key points at its parent; with `key`, the key
 * the path ends at rather than its value), its line moved down by `lineOffset` (for a document parsed from a part of
 * the file); '' when not even `minDepth` of the path exists.
 */
function nodePosition(
  doc: YamlDocument,
  lineCounter: YamlLineCounter,
  path: readonly PropertyKey[],
  lineOffset: number,
  minDepth = 0,
  key = false,
): string {
  const { isNode, isMap, isScalar } = yaml();
  if (key && path.length > minDepth) {
    const parent = doc.getIn(path.slice(0, -1) as unknown[], true);
    const name = path[path.length - 1];
    const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === name) : undefined;
    if (pair && isNode(pair.key) && pair.key.range) {
      const pos = lineCounter.linePos(pair.key.range[0]);
      return `:${pos.line + lineOffset}:${pos.col}`;
    }
  }
  for (let n = path.length; n >= minDepth; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range) {
      const pos = lineCounter.linePos(node.range[0]);
      return `:${pos.line + lineOffset}:${pos.col}`;
    }
  }
  return '';
}

/**
 * Locates a path (`:line:col`) in a file read by the fast parser: a path into a batch of a top-level sequence (a
 * case) re-parses that batch alone with the located parser; any other path, the whole file (`whole`).
 */
function batchLocator(
  read: () => string,
  batches: readonly FastYamlBatch[],
  whole: (path: readonly PropertyKey[], key?: boolean) => string,
): (path: readonly PropertyKey[], key?: boolean) => string {
  const parsed = new Map<FastYamlBatch, { doc: YamlDocument; lineCounter: YamlLineCounter }>();
  let text: string | undefined;
  return (path, atKey) => {
    const [key, index] = path;
    const batch =
      typeof index === 'number'
        ? batches.find((b) => b.key === key && index >= b.first && index < b.first + b.count)
        : undefined;
    if (!batch) return whole(path, atKey);
    let entry = parsed.get(batch);
    if (!entry) {
      const { LineCounter, parseDocument } = yaml();
      const lineCounter = new LineCounter();
      text ??= read();
      const part = text.slice(batch.start, batch.end);
      // too deep for the located parser: the whole file's reading names where (parseLocated)
      if (textTooDeep(part)) return whole(path, atKey);
      const doc = parseDocument(part, { lineCounter, prettyErrors: false });
      entry = { doc, lineCounter };
      parsed.set(batch, entry);
    }
    const local = [(index as number) - batch.first, ...path.slice(2)];
    return nodePosition(entry.doc, entry.lineCounter, local, batch.line - 1, 1, atKey) || whole(path, atKey);
  };
}

/** An unknown key: the valid key it is closest to, else the keys valid there. */
function unknownKey(key: string, valid: readonly string[]): string {
  const meant = closest(key, valid);
  if (meant) return `unknown key '${key}'; did you mean '${meant}'?`;
  return valid.length > 0
    ? `unknown key '${key}' (valid here: ${valid.join(', ')})`
    : `unknown key '${key}' (remove or fix the spelling)`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_union':
      return `${issue.message}; none of the accepted shapes matched`;
    case 'invalid_type':
      return issue.input === undefined
        ? `missing required key (expected ${issue.expected})`
        : `expected ${issue.expected}, got ${typeName(issue.input)}`;
    default:
      return issue.message;
  }
}

/** The JSON type of a value, as an error names it: `array` and `null` rather than typeof's `object`. */
function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

/** JSON data that passes the schema and the check, or not ok (then the YAML path reports the located problem). */
function validJson<S extends z.ZodType>(
  raw: unknown,
  schema: S,
  check?: (data: z.infer<S>) => CheckResult,
): { ok: true; data: z.infer<S> } | { ok: false } {
  if (tooDeepPath(raw)) return { ok: false };
  const result = schema.safeParse(raw);
  if (!result.success || issuesOf(check?.(result.data)).length > 0) return { ok: false };
  return { ok: true, data: result.data };
}
