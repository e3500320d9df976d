import type { ExpectedCall } from '../contracts/suite.js';
import type { ToolDef } from '../contracts/tool.js';
import { MAX_JSON_DEPTH, nestsTooDeep } from '../util/json-depth.js';
import { show } from './transcript-calls.js';

/**
 * BFCL's value rules (eval_checker/ast_eval/ast_checker.py), re-implemented from its documented behaviour:
 * per-parameter lists of allowed values, `""` = may be omitted, int accepted where a float is expected
 * (never a float for an int), strings compared after BFCL's standardisation, lists element-wise in order,
 * dicts key by key (nested dict values are allowed-value lists, as in BFCL's possible answers).
 */

const DROPPED = /[ ,./\-_*^]/;
const DROPPED_ALL = /[ ,./\-_*^]/g;

/**
 * BFCL `standardize_string`: drop spaces and `,./-_*^`, lowercase, `'` → `"`. Each step runs only when it has
 * something to change (a global replace that finds nothing still costs as much as one that does).
 */
export function standardizeString(s: string): string {
  const t = (DROPPED.test(s) ? s.replace(DROPPED_ALL, '') : s).toLowerCase();
  return t.includes("'") ? t.replaceAll("'", '"') : t;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether `actual` equals one allowed value under BFCL's rules. */
export function valueEquals(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'string')
    return typeof actual === 'string' && standardizeString(actual) === standardizeString(expected);
  if (typeof expected === 'number') return typeof actual === 'number' && actual === expected;
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => valueEquals(actual[i], e))
    );
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return false;
    for (const key of Object.keys(actual)) if (!Object.hasOwn(expected, key)) return false;
    for (const [key, allowed] of Object.entries(expected)) {
      const list = Array.isArray(allowed) ? allowed : [allowed];
      if (!Object.hasOwn(actual, key)) {
        if (!list.includes('')) return false;
        continue;
      }
      if (!list.some((v) => valueEquals(actual[key], v))) return false;
    }
    return true;
  }
  return actual === expected;
}

/** `true` when the model wrote `param` as a float literal (`5.0`, `1e3`): JSON and JS erase the difference. */
export function writtenAsFloat(rawArgs: string, param: string): boolean {
  let re = floatPatterns.get(param);
  if (!re) {
    const name = param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    re = new RegExp(`(?:^|[\\s,{(])["']?${name}["']?\\s*[:=]\\s*-?\\d+(?:\\.\\d*|[eE])`);
    if (floatPatterns.size < 10_000) floatPatterns.set(param, re);
  }
  return re.test(rawArgs);
}

/** Compiled per parameter name (grading 20,000 outputs would otherwise build a RegExp per integer argument). */
const floatPatterns = new Map<string, RegExp>();

function schemaProps(tool: ToolDef | undefined): { props?: Record<string, unknown>; required: string[] } {
  const schema = tool?.inputSchema ?? {};
  const props = isRecord(schema.properties) ? schema.properties : undefined;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === 'string')
    : [];
  return props ? { props, required } : { required };
}

interface WantedParam {
  param: string;
  allowed: unknown[];
  /** The allowed strings as written: a value equal to one matches without being standardised. */
  exact: Set<string>;
  /** The allowed strings after standardizeString, so a value is standardised once, not once per allowed value. */
  strings: Set<string>;
  others: unknown[];
}

interface CompiledExpectation {
  free: Set<string>;
  wanted: WantedParam[];
}

/** An expected call prepared once (suites are fixed while grading thousands of outputs against them). */
const expectations = new WeakMap<ExpectedCall, CompiledExpectation>();

function compileExpectation(expected: ExpectedCall): CompiledExpectation {
  let hit = expectations.get(expected);
  if (!hit) {
    hit = {
      free: new Set(expected.free ?? []),
      wanted: Object.entries(expected.args ?? {}).map(([param, allowed]) => ({
        param,
        allowed,
        exact: new Set(allowed.filter((v): v is string => typeof v === 'string')),
        strings: new Set(allowed.filter((v): v is string => typeof v === 'string').map(standardizeString)),
        others: allowed.filter((v) => typeof v !== 'string'),
      })),
    };
    expectations.set(expected, hit);
  }
  return hit;
}

/** `allowed.some((v) => valueEquals(value, v))`, with the allowed strings standardised in advance. */
function isAllowed(value: unknown, w: WantedParam): boolean {
  if (typeof value === 'string' && w.strings.size > 0) {
    if (w.exact.has(value) || w.strings.has(standardizeString(value))) return true;
  }
  for (const v of w.others) if (valueEquals(value, v)) return true;
  return false;
}

/** The problem for arguments nested MAX_JSON_DEPTH levels deep or more (nestsTooDeep). */
function tooDeepProblem(tool: string): string {
  return `arguments of ${tool} nest ${MAX_JSON_DEPTH} levels deep or more (kept as JSON text below that depth, not compared)`;
}

/** A digit followed by `.`, `e` or `E` somewhere: without one, no parameter can be written as a float. */
const FLOAT_HINT = /\d[.eE]/;

function typeOf(prop: unknown): unknown {
  return isRecord(prop) ? prop.type : undefined;
}

export interface CallLike {
  tool: string;
  args: unknown;
  rawArgs: string;
}

/**
 * Problems that stop `call` from matching `expected` (empty = match). With `explain` false the problems are
 * counted, not worded (empty strings): the grader words only the ones it reports. Each names the parameter and the
 * value, e.g. `sheet_name='sheet1'; expected one of ['Sheet1']`.
 */
export function matchCall(call: CallLike, expected: ExpectedCall, tool: ToolDef | undefined, explain = true): string[] {
  if (call.tool !== expected.tool) return [`called ${call.tool}; expected ${expected.tool}`];
  if (nestsTooDeep(call.args)) return [tooDeepProblem(call.tool)];
  if (!isRecord(call.args)) return [`arguments of ${call.tool} are not an object: ${show(call.args)}`];
  const args = call.args;
  const { props, required } = schemaProps(tool);
  const problems: string[] = [];
  const want = expected.args;
  // `free` parameters (free text such as a diff or a question) are checked against the schema only.
  const { free, wanted } = compileExpectation(expected);
  for (const param in args) {
    if (!Object.hasOwn(args, param)) continue;
    if (props && !Object.hasOwn(props, param))
      problems.push(explain ? `unknown parameter ${param}=${show(args[param])} (not in the schema)` : '');
    else if (want && !Object.hasOwn(want, param) && !free.has(param))
      problems.push(explain ? `unexpected parameter ${param}=${show(args[param])}` : '');
  }
  for (const param of required) {
    if (!Object.hasOwn(args, param) && !(want && Object.hasOwn(want, param)))
      problems.push(`missing required parameter ${param}`);
  }
  let floatHint: boolean | undefined;
  for (const w of wanted) {
    const { param, allowed } = w;
    if (free.has(param)) continue;
    if (!Object.hasOwn(args, param)) {
      if (allowed.includes('')) continue;
      const kind = required.includes(param) ? 'required ' : '';
      problems.push(explain ? `missing ${kind}parameter ${param}; expected one of ${show(allowed)}` : '');
      continue;
    }
    const value = args[param];
    const type = typeOf(props?.[param]);
    if (typeof value === 'number' && type === 'integer') {
      floatHint ??= FLOAT_HINT.test(call.rawArgs);
      if (!Number.isInteger(value) || (floatHint && writtenAsFloat(call.rawArgs, param))) {
        problems.push(
          explain
            ? `${param}=${Number.isInteger(value) ? `${value}.0` : value} is a float; the schema asks for an integer`
            : '',
        );
        continue;
      }
    }
    if (!isAllowed(value, w)) {
      // `""` in an allowed list means "may be omitted": say so instead of showing it as a value.
      const values = allowed.filter((v) => v !== '');
      const omit = values.length < allowed.length ? ' (or the parameter omitted)' : '';
      problems.push(explain ? `${param}=${show(value)}; expected one of ${show(values)}${omit}` : '');
    }
  }
  return problems;
}
