import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { z } from 'zod';
import { type ErrorCode, ToolgaugeError } from '../errors.js';

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

/** A path as users read it: `cases[3].expect.calls[0].tool`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(root)';
}

export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/**
 * Reads a YAML file and validates it with a zod schema. Every problem becomes one line naming the file,
 * the line:column of the offending node and the YAML path, and what would be valid.
 */
export interface SemanticIssue {
  path: PropertyKey[];
  message: string;
}

export interface LoadedYaml<T> {
  data: T;
  /** `file:line:col` of the node at a YAML path (or of its nearest existing parent). */
  locate(path: readonly PropertyKey[]): string;
}

export function loadYamlFile<S extends z.ZodType>(
  file: string,
  schema: S,
  code: ErrorCode,
  check?: (data: z.infer<S>) => SemanticIssue | undefined,
): LoadedYaml<z.infer<S>> {
  return loadYaml(file, schema, code, check, true);
}

function loadYaml<S extends z.ZodType>(
  file: string,
  schema: S,
  code: ErrorCode,
  check: ((data: z.infer<S>) => SemanticIssue | undefined) | undefined,
  allowJson: boolean,
): LoadedYaml<z.infer<S>> {
  const shown = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : String(e);
    throw new ToolgaugeError(code === 'CONFIG_INVALID' ? 'CONFIG_NOT_FOUND' : code, `${shown}: ${reason}`);
  }
  // JSON is YAML too, and JSON.parse is ~100x faster than the located YAML parser (1-2 ms per case): large generated
  // suites (BFCL imports, benchmarks) are written as JSON. Any problem falls through to the YAML path to locate it.
  if (allowJson && text.trimStart().startsWith('{')) {
    const fast = fastJson(text, schema, check);
    if (fast.ok) {
      let located: LoadedYaml<unknown> | undefined;
      const locate = (path: readonly PropertyKey[]) => {
        located ??= loadYaml(file, z.unknown(), code, undefined, false);
        return located.locate(path);
      };
      return { data: fast.data, locate };
    }
  }
  const { isNode, LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = lineCounter.linePos(first.pos[0]);
    const msg = first.message.split('\n')[0] ?? first.message;
    throw new ToolgaugeError(code, `${shown}:${pos.line}:${pos.col}: YAML syntax error: ${msg}`);
  }
  const data: unknown = doc.toJS();
  // Point at the deepest node that exists for the issue's path (a missing key points at its parent).
  const locate = (path: readonly PropertyKey[]): string => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n) as unknown[], true);
      if (isNode(node) && node.range) {
        const pos = lineCounter.linePos(node.range[0]);
        return `:${pos.line}:${pos.col}`;
      }
    }
    return '';
  };
  const locateFull = (path: readonly PropertyKey[]) => `${shown}${locate(path)}: ${formatPath(path)}`;
  const result = schema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const more = result.error.issues.length > 1 ? ` (+${result.error.issues.length - 1} more)` : '';
    throw new ToolgaugeError(
      code,
      `${shown}${locate(issue.path)}: ${formatPath(issue.path)}: ${describeIssue(issue)}${more}`,
      { file },
    );
  }
  const problem = check?.(result.data);
  if (problem) {
    throw new ToolgaugeError(code, `${shown}${locate(problem.path)}: ${formatPath(problem.path)}: ${problem.message}`, {
      file,
    });
  }
  return { data: result.data, locate: locateFull };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')} (remove or fix the spelling)`;
    case 'invalid_union':
      return `${issue.message}; none of the accepted shapes matched`;
    case 'invalid_type':
      return issue.input === undefined
        ? `missing required key (expected ${issue.expected})`
        : `expected ${issue.expected}, got ${Array.isArray(issue.input) ? 'array' : issue.input === null ? 'null' : typeof issue.input}`;
    default:
      return issue.message;
  }
}

/** Valid JSON that passes the schema and the check, or not ok (then the YAML path reports the located problem). */
function fastJson<S extends z.ZodType>(
  text: string,
  schema: S,
  check?: (data: z.infer<S>) => SemanticIssue | undefined,
): { ok: true; data: z.infer<S> } | { ok: false } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  const result = schema.safeParse(raw);
  if (!result.success || check?.(result.data)) return { ok: false };
  return { ok: true, data: result.data };
}
