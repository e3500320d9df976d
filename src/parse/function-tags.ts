import { setKey } from '../util/set-key.js';
import type { FoundCall } from './found-call.js';
import { atReadLimit, emptyFound, type FinderContext, type Found, isIntroducedAsExample } from './found-call.js';
import { parseJsonText } from './json-args.js';
import { TagBodies } from './tag-bodies.js';
import { parameterSchemas, parameterValue } from './text-values.js';

const OPEN = '<function=';
const CLOSE = '</function>';
const PARAM_OPEN = '<parameter=';
const PARAM_CLOSE = '</parameter>';
/** More parameters than this in one call is garbage, not a call (and reading them all is work for nothing). */
const MAX_PARAMETERS = 200;
/** A tool name as MCP servers and renderers spell them (dots and dashes included). */
const NAME = /^[\p{L}_][\p{L}\p{N}_.:-]*$/u;

/**
 * `<function=name>…</function>` calls: the OpenHands / Qwen3-Coder form, whose body is `<parameter=p>value</parameter>`
 * elements, and Llama 3.1's custom-tool form, whose body is a JSON object of arguments. No bundled renderer asks for
 * this shape, so a call found here always fails `parseable` (the model answered in the wrong shape); its arguments
 * are still judged.
 *
 * A parameter's value is text, converted by the parameter's schema when the request offered the tool (textValue:
 * `<parameter=n>3</parameter>` is `"3"` for a string parameter, `3` for an integer one); without a schema it becomes
 * a number, boolean, null, array or object only when the whole value is that JSON literal, and anything else, `"3"`
 * with its quotes included, stays the text as written. One line break right after the open tag and one right before
 * the close tag are layout, not value. A missing `</function>` at the end of the reply, or before the next
 * `<function=`, flags the call truncated; such an unclosed tag is a call only when its body opens with a parameter or
 * a JSON object (prose that names the tag is not one). Linear: indexOf only (TagBodies).
 */
export function findFunctionTagCalls(text: string, ctx: FinderContext): Found {
  const found = emptyFound();
  if (!text.includes(OPEN)) return found;
  const bodies = new TagBodies(text, OPEN, CLOSE);
  let from = 0;
  let candidates = 0;
  for (;;) {
    const start = text.indexOf(OPEN, from);
    if (start < 0 || atReadLimit(found, '<function=…>', start, text.length, ++candidates)) break;
    const nameEnd = tagEnd(text, start + OPEN.length);
    const name = nameEnd < 0 ? '' : text.slice(start + OPEN.length, nameEnd).trim();
    if (!NAME.test(name)) {
      from = start + OPEN.length;
      continue;
    }
    const bodyStart = nameEnd + 1;
    const { bodyEnd, closed } = bodies.from(bodyStart);
    // unclosed, a body must open like one (a parameter or JSON): `<function=NAME> with …` in prose is not a call
    if (!closed && !opensBody(text, bodyStart, bodyEnd)) {
      from = bodyStart;
      continue;
    }
    const end = closed ? bodyEnd + CLOSE.length : bodyEnd;
    found.spans.push([start, end]);
    from = end;
    if (isIntroducedAsExample(text, start)) {
      found.diagnostics.push({
        code: 'quoted-example',
        message: 'a <function=…> call shown as an example',
        span: [start, end],
      });
      continue;
    }
    const body = ctx.source.slice(bodyStart, bodyEnd);
    const args = body.includes(PARAM_OPEN) ? parameterArgs(body, parameterSchemas(ctx.tools, name)) : jsonArgs(body);
    if (typeof args === 'string') {
      found.diagnostics.push({
        code: 'unparseable-arguments',
        message: `arguments of <function=${name}> do not parse: ${args}`,
        span: [start, end],
      });
      continue;
    }
    const call: FoundCall = {
      name,
      args: args.value,
      rawArgs: body.trim(),
      shape: 'function-tags',
      repaired: args.repaired,
      truncated: !closed,
      doubleEncoded: false,
      span: [start, end],
    };
    found.calls.push(call);
  }
  return found;
}

type Args = { value: object; repaired: boolean } | string;

/** `<parameter=p>value</parameter>` elements (a missing close ends the value at the next parameter or the end). */
function parameterArgs(body: string, schemas: ReturnType<typeof parameterSchemas>): Args {
  const args: Record<string, unknown> = {};
  let repaired = false;
  const values = new TagBodies(body, PARAM_OPEN, PARAM_CLOSE);
  let from = 0;
  let count = 0;
  for (;;) {
    const start = body.indexOf(PARAM_OPEN, from);
    if (start < 0) break;
    if (++count > MAX_PARAMETERS) return `more than ${MAX_PARAMETERS} parameters`;
    const nameEnd = tagEnd(body, start + PARAM_OPEN.length);
    if (nameEnd < 0) return `<parameter= at ${start} has no closing '>'`;
    const param = body.slice(start + PARAM_OPEN.length, nameEnd).trim();
    if (param === '') return `a <parameter=> at ${start} has no name`;
    const { bodyEnd: valueEnd, closed } = values.from(nameEnd + 1);
    const read = parameterValue(body.slice(nameEnd + 1, valueEnd), schemas, param);
    setKey(args, param, read.value);
    repaired ||= read.repaired;
    from = closed ? valueEnd + PARAM_CLOSE.length : valueEnd;
  }
  return { value: args, repaired };
}

/** The `>` that ends an open tag's name, looked for within 200 characters (-1: none; keeps the scan linear). */
function tagEnd(text: string, from: number): number {
  const at = text.slice(from, from + 200).indexOf('>');
  return at < 0 ? -1 : from + at;
}

/** Llama 3.1's `<function=name>{"a": 1}</function>`: the body is the arguments object (empty body: none). */
function jsonArgs(body: string): Args {
  if (body.trim() === '') return { value: {}, repaired: false };
  const parsed = parseJsonText(body.trim());
  if (!parsed.ok) return parsed.error;
  const v = parsed.value;
  // jsonrepair makes a string of any prose: only an object is an argument list
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return 'the body is neither parameters nor a JSON object';
  return { value: v, repaired: parsed.repaired };
}

/** Whether the body at `from` (after space) opens with a parameter tag or a JSON object, or is empty to its end. */
function opensBody(text: string, from: number, end: number): boolean {
  let i = from;
  while (i < end && /\s/.test(text[i] as string)) i++;
  return i >= end || text.startsWith(PARAM_OPEN, i) || text[i] === '{';
}
