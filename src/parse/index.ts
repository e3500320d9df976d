import type { NativeCall, Protocol } from '../contracts/model.js';
import type { CallVia, Diagnostic, ParseContext, ParsedCall, ParseResult, ParseTool } from '../contracts/parse.js';
import { jsonText } from '../util/json-text.js';
import { findBareJsonCalls } from './bare-json.js';
import { type FenceRegion, findFencedCalls, findInlineCodeCalls } from './fences.js';
import { MARKUP_FORMATS } from './formats/markup-formats.js';
import { findReasoningChannels } from './formats/reasoning-channels.js';
import { TOKEN_FORMATS } from './formats/token-formats.js';
import type { Finder, FinderContext, Found, FoundCall } from './found-call.js';
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
 * a parser fault becomes an `other` diagnostic. `context.tools`, the tools the request offered, lets the parser
 * recognise formats that name a tool by its tag and convert text argument values by the tool's schema.
 */
export function parseResponse(
  response: { text: string; toolCalls: NativeCall[] },
  protocol: Protocol,
  context: ParseContext = {},
): ParseResult {
  try {
    const text = typeof response.text === 'string' ? response.text : '';
    return withReplyBudget(text.length, () => parseUnchecked(response, protocol, context.tools ?? []));
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

function parseUnchecked(
  response: { text: string; toolCalls: NativeCall[] },
  _protocol: Protocol,
  tools: readonly ParseTool[],
): ParseResult {
  const calls: ParsedCall[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const native of response.toolCalls ?? []) nativeCall(native, calls, diagnostics);

  const text = typeof response.text === 'string' ? response.text : '';
  const think = mergeSpans([...findThinkBlocks(text), ...findReasoningChannels(text)]);
  // calls inside reasoning are reported for the first blocks only: each block is parsed on its own
  for (const [s, e] of think.slice(0, MAX_THINK_BLOCKS_READ)) {
    const block = text.slice(s, e);
    const inner = textCalls(block, block, tools);
    for (const c of inner.calls) {
      diagnostics.push({
        code: 'call-in-think',
        message: `${c.name} call inside a reasoning block is not a call`,
        span: [s + (c.span?.[0] ?? 0), s + (c.span?.[1] ?? 0)],
      });
    }
  }
  const found = textCalls(maskSpans(text, think), text, tools);
  for (const c of found.calls) {
    if (isAnswerDirectly(c, tools)) {
      diagnostics.push({
        code: 'other',
        message: `${c.name}: Command's way of answering without a tool, not a call`,
        ...span(c),
      });
    } else calls.push(c);
  }
  diagnostics.push(...found.diagnostics);
  calls.sort((a, b) => (a.span?.[0] ?? -1) - (b.span?.[0] ?? -1));
  summarise(calls, diagnostics);
  return { calls, diagnostics };
}

/** The pseudo-tool Command R/R+ templates offer for "answer without a tool" (when the request offered no such tool). */
const ANSWER_DIRECTLY = new Set(['directly_answer', 'directly-answer']);

function isAnswerDirectly(c: ParsedCall, tools: readonly ParseTool[]): boolean {
  return ANSWER_DIRECTLY.has(c.name) && !tools.some((t) => t.name === c.name);
}

function nativeCall(native: NativeCall, calls: ParsedCall[], diagnostics: Diagnostic[]): void {
  const raw = native.arguments;
  // (jsonText: arguments nested thousands deep do not overflow the stack)
  const rawArgs = typeof raw === 'string' ? raw : (jsonText(raw ?? {}) ?? '{}');
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

/**
 * The finders, in the order they claim text; each searches the reply with the regions claimed before it masked.
 * 1. Shapes with delimiters no prose or markdown uses: model families' special tokens and tags, `<tool_call>`,
 *    `<function=…>`. They go first so that a fence or a tag written inside a call's string values stays argument text.
 * 2. Code fences and inline code, whose bodies are read as a JSON call or python calls. A call of step 1 that lies
 *    inside a fence is reported as wrapped by it (`via: fenced`, `inner` its shape), as markdown-wrapped needs.
 * 3. Shapes without delimiters: bare JSON, then python calls.
 */
const DELIMITED: readonly Finder[] = [...TOKEN_FORMATS, ...MARKUP_FORMATS, findXmlTagCalls, findFunctionTagCalls];
const UNDELIMITED: readonly Finder[] = [findBareJsonCalls, findPythonCalls];

interface Claimed {
  call?: FoundCall;
  diagnostic?: Diagnostic;
  /** Which finder (its place in the order) found it: a finding inside a later finder's call is that call's text. */
  step: number;
  wrap?: { fence: string; inline: boolean };
}

function textCalls(
  text: string,
  source: string,
  tools: readonly ParseTool[],
): { calls: ParsedCall[]; diagnostics: Diagnostic[] } {
  const ctx: FinderContext = { tools, source };
  const claimed: Claimed[] = [];
  let masked = text;
  let step = 0;
  const run = (found: Found) => {
    for (const call of found.calls) claimed.push({ call, step });
    for (const diagnostic of found.diagnostics) claimed.push({ diagnostic, step });
    masked = maskSpans(masked, mergeSpans(found.spans));
    step++;
  };
  for (const finder of DELIMITED) run(finder(masked, ctx));
  const delimited = claimed.length;
  const fenced = findFencedCalls(masked, source, tools);
  run(fenced);
  const inline = findInlineCodeCalls(masked, source, tools);
  run(inline);
  wrapInFences(claimed.slice(0, delimited), [...fenced.regions, ...inline.regions]);
  for (const finder of UNDELIMITED) run(finder(masked, ctx));

  const calls: ParsedCall[] = [];
  const diagnostics: Diagnostic[] = [];
  const callSpans = claimed.filter((c) => c.call).map((c) => ({ span: c.call!.span, step: c.step }));
  for (const c of claimed) {
    const span = c.call?.span ?? c.diagnostic?.span;
    // a finding inside a call a later finder read (a fence in a JSON call's string value) is that call's text
    if (span && callSpans.some((o) => o.step > c.step && encloses(o.span, span))) continue;
    if (c.diagnostic) diagnostics.push(c.diagnostic);
    if (!c.call) continue;
    const fc = c.call as FoundCall & { fence?: string; inline?: boolean };
    const wrap = c.wrap ?? (fc.fence !== undefined ? { fence: fc.fence, inline: fc.inline === true } : undefined);
    if (wrap)
      calls.push({ ...toParsed(fc, wrap.inline ? 'inline-code' : 'fenced'), fence: wrap.fence, inner: fc.shape });
    else calls.push(toParsed(fc, fc.shape));
    doubleEncoded(fc, diagnostics);
  }
  return { calls, diagnostics };
}

/** Calls found with their own delimiters inside a fence or inline code: the fence wraps them. */
function wrapInFences(claimed: Claimed[], regions: readonly FenceRegion[]): void {
  if (regions.length === 0) return;
  for (const c of claimed) {
    if (!c.call) continue;
    const span = c.call.span;
    const region = regions.find((r) => encloses(r.span, span));
    if (region) c.wrap = { fence: region.fence, inline: region.inline };
  }
}

function encloses(outer: [number, number], inner: [number, number]): boolean {
  return outer[0] <= inner[0] && inner[1] <= outer[1] && (outer[0] < inner[0] || inner[1] < outer[1]);
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
