import type { NativeCall, Protocol } from '../contracts/model.js';
import type { CallVia, Diagnostic, ParsedCall, ParseResult } from '../contracts/parse.js';
import { findBareJsonCalls } from './bare-json.js';
import { findFencedCalls, findInlineCodeCalls } from './fences.js';
import type { FoundCall } from './found-call.js';
import { findFunctionTagCalls } from './function-tags.js';
import { parseArguments } from './json-args.js';
import { findPythonCalls } from './python-detect.js';
import { withReplyBudget } from './reply-budget.js';
import { findThinkBlocks, maskSpans, mergeSpans } from './think-blocks.js';
import { findXmlTagCalls } from './xml-tags.js';

export { findThinkBlocks, stripThink } from './think-blocks.js';

/** Reasoning blocks whose calls are reported (`call-in-think`); a reply with more is garbage. */
const MAX_THINK_BLOCKS_READ = 20;

/**
 * Every call in a model reply, whatever its shape, with diagnostics. Never throws on model output:
 * a parser fault becomes an `other` diagnostic.
 */
export function parseResponse(response: { text: string; toolCalls: NativeCall[] }, protocol: Protocol): ParseResult {
  try {
    const text = typeof response.text === 'string' ? response.text : '';
    return withReplyBudget(text.length, () => parseUnchecked(response, protocol));
  } catch (e) {
    return {
      calls: [],
      diagnostics: [{ code: 'other', message: `parser fault: ${e instanceof Error ? e.message : String(e)}` }],
    };
  }
}

/** The calls a strict detector for `protocol` executes: the protocol's own shape, arguments not repaired. */
export function acceptedCalls(result: ParseResult, protocol: Protocol): ParsedCall[] {
  return result.calls.filter((c) => c.via === protocol && !c.repaired);
}

function parseUnchecked(response: { text: string; toolCalls: NativeCall[] }, _protocol: Protocol): ParseResult {
  const calls: ParsedCall[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const native of response.toolCalls ?? []) nativeCall(native, calls, diagnostics);

  const text = typeof response.text === 'string' ? response.text : '';
  const think = findThinkBlocks(text);
  // calls inside reasoning are reported for the first blocks only: each block is parsed on its own
  for (const [s, e] of think.slice(0, MAX_THINK_BLOCKS_READ)) {
    const inner = textCalls(text.slice(s, e));
    for (const c of inner.calls) {
      diagnostics.push({
        code: 'call-in-think',
        message: `${c.name} call inside a reasoning block is not a call`,
        span: [s + (c.span?.[0] ?? 0), s + (c.span?.[1] ?? 0)],
      });
    }
  }
  const found = textCalls(maskSpans(text, think));
  calls.push(...found.calls);
  diagnostics.push(...found.diagnostics);
  calls.sort((a, b) => (a.span?.[0] ?? -1) - (b.span?.[0] ?? -1));
  summarise(calls, diagnostics);
  return { calls, diagnostics };
}

function nativeCall(native: NativeCall, calls: ParsedCall[], diagnostics: Diagnostic[]): void {
  const raw = native.arguments;
  const rawArgs = typeof raw === 'string' ? raw : JSON.stringify(raw ?? {});
  const parsed = parseArguments(raw);
  if (!parsed.ok) {
    diagnostics.push({
      code: 'unparseable-arguments',
      message: `arguments of native call ${native.name} are not JSON: ${parsed.error}`,
    });
    return;
  }
  const call: ParsedCall = { name: native.name, args: parsed.value, rawArgs, via: 'native', repaired: parsed.repaired };
  if (native.id) call.id = native.id;
  if (parsed.doubleEncoded) {
    diagnostics.push({
      code: 'double-encoded',
      message: `arguments of ${native.name} were a JSON string holding JSON`,
    });
  }
  calls.push(call);
}

/** Text shapes, outermost first; each finder's regions are masked before the next one runs. */
function textCalls(text: string): { calls: ParsedCall[]; diagnostics: Diagnostic[] } {
  const calls: ParsedCall[] = [];
  const diagnostics: Diagnostic[] = [];
  const fenced = findFencedCalls(text);
  let masked = maskSpans(text, mergeSpans(fenced.spans));
  const inline = findInlineCodeCalls(masked);
  masked = maskSpans(masked, mergeSpans(inline.spans));
  for (const group of [fenced, inline]) {
    for (const c of group.calls) {
      const via: CallVia = c.inline ? 'inline-code' : 'fenced';
      calls.push({ ...toParsed(c, via), fence: c.fence, inner: c.shape });
    }
    diagnostics.push(...group.diagnostics);
  }
  for (const finder of [findXmlTagCalls, findFunctionTagCalls, findBareJsonCalls, findPythonCalls]) {
    const found = finder(masked);
    masked = maskSpans(masked, mergeSpans(found.spans));
    for (const c of found.calls) {
      calls.push(toParsed(c, c.shape));
      doubleEncoded(c, diagnostics);
    }
    diagnostics.push(...found.diagnostics);
  }
  for (const c of [...fenced.calls, ...inline.calls]) doubleEncoded(c, diagnostics);
  return { calls, diagnostics };
}

function doubleEncoded(c: FoundCall, diagnostics: Diagnostic[]): void {
  if (c.doubleEncoded) {
    diagnostics.push({
      code: 'double-encoded',
      message: `${c.name}: arguments were a JSON string holding JSON`,
      span: c.span,
    });
  }
}

function toParsed(c: FoundCall, via: CallVia): ParsedCall {
  const call: ParsedCall = { name: c.name, args: c.args, rawArgs: c.rawArgs, via, repaired: c.repaired, span: c.span };
  if (c.truncated) call.truncated = true;
  if (c.id !== undefined) call.id = c.id;
  return call;
}

function summarise(calls: ParsedCall[], diagnostics: Diagnostic[]): void {
  if (calls.length > 1) {
    diagnostics.push({ code: 'multiple-calls', message: `${calls.length} calls in one reply: ${callNames(calls)}` });
  }
  for (const c of calls) {
    if (c.truncated)
      diagnostics.push({
        code: 'truncated',
        message: `${c.name}: closing tag or bracket missing or cut short`,
        ...span(c),
      });
    if (c.repaired) {
      const how = isPythonCall(c) ? 'with the brackets the cut left open closed' : 'after jsonrepair';
      diagnostics.push({ code: 'repaired', message: `${c.name}: arguments only parse ${how}`, ...span(c) });
    }
  }
}

/** The names in order, a repeated name once with its count (`f ×3`), at most 20 names then `…`. */
function callNames(calls: ParsedCall[]): string {
  if (calls.length <= 20) return calls.map((c) => c.name).join(', ');
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  const names = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name));
  return names.length > 20 ? `${names.slice(0, 20).join(', ')}, …` : names.join(', ');
}

/** Whether a call is python-call syntax, bare or inside a fence (its repairs close brackets, not JSON). */
export function isPythonCall(c: ParsedCall): boolean {
  return c.via === 'python-call' || c.inner === 'python-call';
}

function span(c: ParsedCall): { span?: [number, number] } {
  return c.span ? { span: c.span } : {};
}
