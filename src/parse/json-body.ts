import type { ParseTool } from '../contracts/parse.js';
import { callsFromValue, nameKeyedCalls, rawArgsOf } from './call-object.js';
import { emptyFound, type Found, type FoundCall } from './found-call.js';
import { findFunctionTagCalls } from './function-tags.js';
import { parseJsonText } from './json-args.js';
import { scanBalanced, skipSpace } from './json-scan.js';
import { parsePythonCalls } from './python-call.js';

/** `[name(`: how a python call list opens; no JSON value does. */
const PYTHON_LIST_START = /^\[\s*[\p{L}_][\p{L}\p{N}_.]*\s*\(/u;

/**
 * Calls in the body of a `<tool_call>` tag or a code fence: a JSON call object or array (repaired if
 * need be), else python-call syntax. `offset` maps body positions back to the reply. `attempt` says the
 * wrapper itself announces a call (a `<tool_call>` tag, a ```` ```tool_call ```` fence): then a body we
 * cannot read is reported as a malformed attempt instead of being ignored. `tools`, the offered tools when known,
 * convert the text values of a `<function=…>` body by each tool's schema.
 */
export interface BodyOptions {
  attempt: boolean;
  truncated: boolean;
  requireArgs: boolean;
  tools?: readonly ParseTool[];
  /** The body's call objects are keyed by the tool's name (`[{"get_weather": {…}}]`, Apertus). */
  nameKeyed?: boolean;
  /** The wrapper's closing token, which may follow python calls in the body (the body runs to the next open token). */
  closeToken?: string;
}

export function callsInBody(body: string, offset: number, opts: BodyOptions): Found {
  const i = skipSpace(body, 0);
  const ch = body[i];
  const named = nameLineCall(body, i, offset, opts);
  if (named) return named;
  let jsonFound: Found | undefined;
  // `[name(` opens a python call list, never JSON: skip the JSON.parse and jsonrepair it would fail
  if (ch === '{' || (ch === '[' && !PYTHON_LIST_START.test(body.slice(i, i + 200)))) {
    jsonFound = jsonCalls(body, i, offset, opts);
    if (jsonFound.calls.length > 0 || ch === '{') return jsonFound;
  }
  // Qwen3-Coder writes `<tool_call><function=name><parameter=…>…</function></tool_call>`
  if (body.includes('<function=')) {
    const tagged = findFunctionTagCalls(body, { tools: opts.tools ?? [], source: body });
    if (tagged.calls.length > 0 || tagged.diagnostics.length > 0) {
      for (const c of tagged.calls) {
        c.span = [offset + c.span[0], offset + c.span[1]];
        if (opts.truncated) c.truncated = true;
      }
      for (const d of tagged.diagnostics) if (d.span) d.span = [offset + d.span[0], offset + d.span[1]];
      return tagged;
    }
  }
  const found = emptyFound();
  let py = parsePythonCalls(body, i);
  // a wrapper the reply cut off (unclosed fence or tag) whose call list the cut left open: closed where it ends
  if (!py.ok && opts.truncated && py.end >= body.trimEnd().length) py = parsePythonCalls(body, i, true);
  if (py.ok && restIsClose(body.slice(py.end), opts.closeToken)) {
    for (const c of py.calls) {
      found.calls.push({
        name: c.name,
        args: c.args,
        rawArgs: c.rawArgs,
        shape: 'python-call',
        repaired: c.truncated === true,
        truncated: opts.truncated,
        doubleEncoded: false,
        span: [offset + c.span[0], offset + c.span[1]],
      });
    }
    return found;
  }
  if (jsonFound) return jsonFound;
  if (opts.attempt && body.trim() !== '') {
    found.diagnostics.push({
      code: 'wrong-shape',
      message: 'call body is neither a JSON call object nor a python call',
      span: [offset + i, offset + body.length],
    });
  }
  return found;
}

function jsonCalls(body: string, i: number, offset: number, opts: BodyOptions): Found {
  const found = emptyFound();
  const scan = scanBalanced(body, i);
  const text = body.slice(i, scan.end);
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    if (opts.attempt) {
      found.diagnostics.push({
        code: 'unparseable-arguments',
        message: `call body is not JSON even after repair: ${parsed.error}`,
        span: [offset + i, offset + scan.end],
      });
    }
    return found;
  }
  const calls = opts.nameKeyed ? nameKeyedCalls(parsed.value) : callsFromValue(parsed.value, opts.requireArgs);
  if (calls.length === 0) {
    if (opts.attempt) {
      found.diagnostics.push({
        code: 'wrong-shape',
        message: 'JSON has no tool name (name/tool_name/function) with arguments',
        span: [offset + i, offset + scan.end],
      });
    }
    return found;
  }
  for (const c of calls) {
    if (c.badArgs) {
      found.diagnostics.push({
        code: 'unparseable-arguments',
        message: `arguments of ${c.name} are not JSON`,
        span: [offset + i, offset + scan.end],
      });
      continue;
    }
    const call: FoundCall = {
      name: c.name,
      args: c.args,
      rawArgs: calls.length === 1 ? rawArgsOf(text) : JSON.stringify(c.args),
      shape: c.shape ?? 'json',
      repaired: parsed.repaired || c.repaired,
      truncated: opts.truncated || !scan.closed,
      doubleEncoded: parsed.doubleEncoded || c.doubleEncoded,
      span: [offset + i, offset + scan.end],
    };
    if (c.id !== undefined) call.id = c.id;
    found.calls.push(call);
  }
  return found;
}

/** `name` on the body's first line (a tool name, nothing else), then a JSON object: the line and where the JSON starts. */
const NAME_LINE = /^([\p{L}_][\p{L}\p{N}_.:-]{0,199})[ \t]*\r?\n[ \t\r\n]*\{/u;

/**
 * A body that is a tool name on its own line followed by a JSON object of arguments (`get_weather\n{"city": "Oslo"}`),
 * as some families write inside their call tag (read only inside a wrapper that announces a call): the call, shape `name-json` (no strict detector reads it). Undefined
 * when the body is not so (including a name line followed by GLM's `<arg_key>`, which the GLM finder reads).
 */
function nameLineCall(body: string, i: number, offset: number, opts: BodyOptions): Found | undefined {
  // only a wrapper that announces a call: in a plain fence a word on a line then JSON is prose and data
  if (!opts.attempt || opts.nameKeyed) return undefined;
  const head = NAME_LINE.exec(body.slice(i, i + 400));
  if (!head) return undefined;
  const name = head[1] as string;
  const at = i + head[0].length - 1;
  const scan = scanBalanced(body, at);
  // only the object and space may follow it: a name line then JSON then prose is not this shape
  if (body.slice(scan.end).trim() !== '') return undefined;
  const raw = body.slice(at, scan.end);
  const parsed = parseJsonText(raw);
  const found = emptyFound();
  const span: [number, number] = [offset + i, offset + scan.end];
  const v = parsed.ok ? parsed.value : undefined;
  if (!parsed.ok || typeof v !== 'object' || v === null || Array.isArray(v)) {
    found.diagnostics.push({
      code: 'unparseable-arguments',
      message: `arguments of ${name} after its name line are not a JSON object${parsed.ok ? '' : `: ${parsed.error}`}`,
      span,
    });
    return found;
  }
  found.calls.push({
    name,
    args: v,
    rawArgs: raw,
    shape: 'name-json',
    repaired: parsed.repaired,
    truncated: opts.truncated || !scan.closed,
    doubleEncoded: parsed.doubleEncoded,
    span,
  });
  return found;
}

/** Whether what follows a body's python calls is only space, or the wrapper's closing token (and anything after it). */
function restIsClose(rest: string, close: string | undefined): boolean {
  const t = rest.trimStart();
  return t === '' || (close !== undefined && t.startsWith(close));
}
