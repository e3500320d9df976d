import { parseArguments } from './json-args.js';
import { scanBalanced, skipSpace } from './json-scan.js';

const NAME_KEYS = ['name', 'tool_name', 'function'] as const;
const ARG_KEYS = ['arguments', 'parameters', 'args'] as const;

export interface CallFromJson {
  name: string;
  args: unknown;
  /** The model sent its arguments as a JSON string holding JSON. */
  doubleEncoded: boolean;
  /** The arguments string needed jsonrepair. */
  repaired: boolean;
  /** The arguments could not be parsed at all (args is then the raw string). */
  badArgs: boolean;
  /** The arguments nest deeper than MAX_JSON_DEPTH: args is then their JSON text (json-args.ts). */
  tooDeep?: true;
  id?: string;
  /**
   * Set when the call came out of a `{"tool_calls": [...]}` wrapper: `xlam` for plain `{name, arguments}` elements,
   * `openai-json` for OpenAI-shaped elements or a whole OpenAI assistant message echoed as text.
   */
  shape?: 'xlam' | 'openai-json';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads one call object: `{"name"|"tool_name"|"function": …, "arguments"|"parameters"|"args": …, "id"?}`,
 * also the OpenAI shape `{"function": {"name", "arguments"}}`. `requireArgs` rejects `{"name": "John"}`
 * objects in prose that merely have a name. `stringArgs`: the format writes arguments as a JSON string (OpenAI's
 * wire format), so a string holding JSON is not reported as double-encoded.
 */
export function callFromObject(value: unknown, requireArgs: boolean, stringArgs = false): CallFromJson | null {
  if (!isRecord(value)) return null;
  const nested = value.function;
  if (isRecord(nested) && typeof nested.name === 'string') {
    const call = callFromObject(nested, requireArgs, stringArgs);
    if (call && typeof value.id === 'string') call.id = value.id;
    return call;
  }
  const nameKey = NAME_KEYS.find((k) => typeof value[k] === 'string' && (value[k] as string).trim() !== '');
  if (!nameKey) return null;
  const argKey = ARG_KEYS.find((k) => k in value);
  if (!argKey && requireArgs) return null;
  const parsed = parseArguments(argKey ? value[argKey] : undefined);
  const call: CallFromJson = {
    name: (value[nameKey] as string).trim(),
    args: parsed.ok ? parsed.value : value[argKey ?? 'arguments'],
    // arguments written as a JSON string inside a JSON call object are double-encoded already, unless the format
    // says arguments are a string (OpenAI's wire format)
    doubleEncoded:
      parsed.ok &&
      (parsed.doubleEncoded ||
        (!stringArgs && typeof value[argKey ?? ''] === 'string' && typeof parsed.value === 'object')),
    repaired: parsed.ok && parsed.repaired,
    badArgs: !parsed.ok,
  };
  if (parsed.ok && parsed.tooDeep) call.tooDeep = true;
  const id = callId(value);
  if (id !== undefined) call.id = id;
  return call;
}

/** A call object's id: `id`, or Cohere's `tool_call_id` (Command R7B / Command A action lists). */
function callId(value: Record<string, unknown>): string | undefined {
  if (typeof value.id === 'string') return value.id;
  return typeof value.tool_call_id === 'string' ? value.tool_call_id : undefined;
}

/**
 * Calls in a parsed JSON value: one call object, an array of them (every element must be a call), or a
 * `{"tool_calls": [...]}` wrapper (wrapperCalls).
 */
export function callsFromValue(value: unknown, requireArgs: boolean): CallFromJson[] {
  const wrapped = wrapperCalls(value);
  if (wrapped) return wrapped;
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    const calls = value.map((v) => callFromObject(v, requireArgs));
    return calls.every((c) => c !== null) ? (calls as CallFromJson[]) : [];
  }
  const one = callFromObject(value, requireArgs);
  return one ? [one] : [];
}

/**
 * The calls of a `{"tool_calls": [...]}` wrapper, or null when `value` is not one. xLAM answers
 * `{"thought"?, "tool_calls": [{"name", "arguments"}]}` (shape `xlam`), as llama.cpp's generic format does, which
 * writes a single call as `{"tool_call": {"name", "arguments"}}` (also `xlam`); a model that echoes OpenAI's wire format writes
 * elements `{"id", "type": "function", "function": {"name", "arguments": "<json>"}}`, or the whole assistant message
 * `{"role": "assistant", "content", "tool_calls": [...]}` or its legacy `function_call` (shape `openai-json`). The
 * wrapper itself says these are calls, so elements need no arguments key; an element that is not a call, or an empty
 * list (`"tool_calls": []`, a message that called nothing), gives no calls.
 */
function wrapperCalls(value: unknown): CallFromJson[] | null {
  if (!isRecord(value)) return null;
  const message = value.role === 'assistant';
  const legacy = value.function_call;
  if (message && isRecord(legacy) && !Array.isArray(value.tool_calls)) {
    const call = callFromObject(legacy, false, true);
    if (call) call.shape = 'openai-json';
    return call ? [call] : [];
  }
  const list = value.tool_calls;
  // llama.cpp's generic format writes one call as {"tool_call": {"name", "arguments"}} (several as "tool_calls")
  const single = value.tool_call;
  if (!message && list === undefined && isRecord(single)) {
    const call = callFromObject(single, false);
    if (call) call.shape = 'xlam';
    return call ? [call] : [];
  }
  if (!Array.isArray(list)) return message && list === null ? [] : null;
  const calls: CallFromJson[] = [];
  for (const element of list) {
    const openai = message || (isRecord(element) && isRecord(element.function));
    const call = callFromObject(element, false, openai);
    if (!call) return [];
    call.shape = openai ? 'openai-json' : 'xlam';
    calls.push(call);
  }
  return calls;
}

/**
 * The arguments text as the model wrote it inside a call object's JSON: the value after the first
 * `"arguments"`/`"parameters"`/`"args"` key. Falls back to the whole text.
 */
export function rawArgsOf(jsonText: string): string {
  for (const key of ARG_KEYS) {
    const at = jsonText.indexOf(`"${key}"`);
    if (at < 0) continue;
    let i = skipSpace(jsonText, at + key.length + 2);
    if (jsonText[i] !== ':') continue;
    i = skipSpace(jsonText, i + 1);
    const ch = jsonText[i];
    if (ch === '{' || ch === '[') return jsonText.slice(i, scanBalanced(jsonText, i).end);
    if (ch === '"') {
      let j = i + 1;
      while (j < jsonText.length && jsonText[j] !== '"') j += jsonText[j] === '\\' ? 2 : 1;
      return jsonText.slice(i, j + 1);
    }
  }
  return jsonText;
}

/**
 * Apertus' call list: each element an object with one key, the tool's name, whose value is the arguments
 * (`[{"get_weather": {"city": "Oslo"}}]`; one such object alone is read too). Every element must be one, else no calls.
 */
export function nameKeyedCalls(value: unknown): CallFromJson[] {
  const items = Array.isArray(value) ? value : [value];
  const calls: CallFromJson[] = [];
  for (const item of items) {
    if (!isRecord(item)) return [];
    const keys = Object.keys(item);
    const name = keys[0];
    if (keys.length !== 1 || name === undefined || name.trim() === '') return [];
    const raw = item[name];
    const parsed = parseArguments(raw ?? {});
    calls.push({
      name: name.trim(),
      args: parsed.ok ? parsed.value : raw,
      doubleEncoded:
        parsed.ok && (parsed.doubleEncoded || (typeof raw === 'string' && typeof parsed.value === 'object')),
      repaired: parsed.ok && parsed.repaired,
      badArgs: !parsed.ok,
      ...(parsed.ok && parsed.tooDeep ? { tooDeep: true as const } : {}),
    });
  }
  return calls;
}
