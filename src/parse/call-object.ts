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
  id?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads one call object: `{"name"|"tool_name"|"function": …, "arguments"|"parameters"|"args": …, "id"?}`,
 * also the OpenAI shape `{"function": {"name", "arguments"}}`. `requireArgs` rejects `{"name": "John"}`
 * objects in prose that merely have a name.
 */
export function callFromObject(value: unknown, requireArgs: boolean): CallFromJson | null {
  if (!isRecord(value)) return null;
  const nested = value.function;
  if (isRecord(nested) && typeof nested.name === 'string') {
    const call = callFromObject(nested, requireArgs);
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
    // arguments written as a JSON string inside a JSON call object are double-encoded already
    doubleEncoded:
      parsed.ok &&
      (parsed.doubleEncoded || (typeof value[argKey ?? ''] === 'string' && typeof parsed.value === 'object')),
    repaired: parsed.ok && parsed.repaired,
    badArgs: !parsed.ok,
  };
  if (typeof value.id === 'string') call.id = value.id;
  return call;
}

/** Calls in a parsed JSON value: one call object or an array of them (every element must be a call). */
export function callsFromValue(value: unknown, requireArgs: boolean): CallFromJson[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    const calls = value.map((v) => callFromObject(v, requireArgs));
    return calls.every((c) => c !== null) ? (calls as CallFromJson[]) : [];
  }
  const one = callFromObject(value, requireArgs);
  return one ? [one] : [];
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
