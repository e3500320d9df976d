import { jsonrepair } from 'jsonrepair';
import { depthExceeds, MAX_JSON_DEPTH, textDepthExceeds } from '../util/json-depth.js';
import { jsonText } from '../util/json-text.js';
import { takeRepairChars } from './reply-budget.js';

/** jsonrepair is recursive; beyond this size we do not ask it (the text is not a tool call anyway). */
const MAX_REPAIR_CHARS = 200_000;

export type JsonParse =
  | {
      ok: true;
      value: unknown;
      repaired: boolean;
      doubleEncoded: boolean;
      /**
       * The value nested deeper than MAX_JSON_DEPTH. From parseJsonText: `value` keeps the first MAX_JSON_DEPTH
       * levels, each container below them replaced by its JSON text (a string). From parseArguments: `value` is the
       * whole arguments' JSON text, a string, for the graders to judge as such.
       */
      tooDeep?: true;
    }
  | { ok: false; error: string };

/**
 * The whole value each container of a depth-bounded copy stands for (boundDepth), so that parseArguments, handed
 * the arguments inside a call object parseJsonText bounded, judges them by their real depth.
 */
const wholeOf = new WeakMap<object, object>();

/**
 * JSON.parse first; then jsonrepair (flagged `repaired`); a JSON string that itself holds JSON (a
 * "double-encoded" object, as some models and servers send) is decoded once more. A value nested deeper than
 * MAX_JSON_DEPTH is handed on bounded (flagged `tooDeep`): JSON.parse reads any depth, but the code after it
 * recurses. Never throws.
 */
export function parseJsonText(raw: string): JsonParse {
  let value: unknown;
  let text = raw;
  let repaired = false;
  try {
    value = JSON.parse(raw);
  } catch (first) {
    if (raw.length > MAX_REPAIR_CHARS || !takeRepairChars(raw.length)) return { ok: false, error: errorText(first) };
    try {
      text = jsonrepair(raw);
      value = JSON.parse(text);
      repaired = true;
    } catch {
      return { ok: false, error: errorText(first) };
    }
  }
  const parsed = decodeTwice(value, repaired);
  // the text read tells (without walking the value) whether the value can nest that deep; a decoded string's
  // content nests no deeper than the limit unless its own text does
  const deep = textDepthExceeds(text) || (parsed.ok && parsed.doubleEncoded && textDepthExceeds(value as string));
  return deep ? bounded(parsed) : parsed;
}

function decodeTwice(value: unknown, repaired: boolean): JsonParse {
  if (typeof value !== 'string') return { ok: true, value, repaired, doubleEncoded: false };
  const inner = value.trim();
  if (!(inner.startsWith('{') || inner.startsWith('['))) return { ok: true, value, repaired, doubleEncoded: false };
  try {
    return { ok: true, value: JSON.parse(inner), repaired, doubleEncoded: true };
  } catch {
    return { ok: true, value, repaired, doubleEncoded: false };
  }
}

/** The parse with its value bounded to MAX_JSON_DEPTH levels when it nests deeper (boundDepth). */
function bounded(parsed: JsonParse): JsonParse {
  if (!parsed.ok || !depthExceeds(parsed.value)) return parsed;
  return { ...parsed, value: boundDepth(parsed.value as object), tooDeep: true };
}

/**
 * A copy of `value` holding its first MAX_JSON_DEPTH levels; each container below them is replaced by its JSON text.
 * The call structure around a model's arguments (`{"name", "arguments"}`, a `tool_calls` list) stays readable, and
 * no code after the parser walks more levels than the limit. Every copied container remembers the value it stands
 * for (wholeOf). Explicit stack: safe at any depth.
 */
function boundDepth(value: object): object {
  const copyOf = (v: object): Record<string, unknown> | unknown[] => {
    const copy: Record<string, unknown> | unknown[] = Array.isArray(v) ? [] : {};
    wholeOf.set(copy, v);
    return copy;
  };
  const root = copyOf(value);
  const stack: Array<{ from: object; to: Record<string, unknown> | unknown[]; depth: number }> = [
    { from: value, to: root, depth: 1 },
  ];
  while (stack.length > 0) {
    const { from, to, depth } = stack.pop() as (typeof stack)[number];
    for (const key of Object.keys(from)) {
      const member = (from as Record<string, unknown>)[key];
      let out: unknown = member;
      if (typeof member === 'object' && member !== null) {
        if (depth >= MAX_JSON_DEPTH) out = jsonText(member);
        else {
          const copy = copyOf(member);
          stack.push({ from: member, to: copy, depth: depth + 1 });
          out = copy;
        }
      }
      // defineProperty, not `to[key] =`: a `__proto__` key stays an own key
      Object.defineProperty(to, key, { value: out, enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

/**
 * Arguments as a provider or a call object carries them: an object, or a (possibly double-encoded) string.
 * Arguments nested deeper than MAX_JSON_DEPTH come back as their JSON text, flagged `tooDeep`: graders judge that
 * text (it is not an object) without walking it.
 */
export function parseArguments(raw: unknown): JsonParse {
  if (raw === undefined || raw === null) return { ok: true, value: {}, repaired: false, doubleEncoded: false };
  if (typeof raw !== 'string') {
    // a container of a call object parseJsonText bounded: judge the arguments it stands for
    const whole = (typeof raw === 'object' && wholeOf.get(raw)) || raw;
    if (depthExceeds(whole)) return asText(jsonText(whole) ?? '', false, false);
    return { ok: true, value: whole, repaired: false, doubleEncoded: false };
  }
  if (raw.trim() === '') return { ok: true, value: {}, repaired: false, doubleEncoded: false };
  const parsed = parseJsonText(raw);
  if (parsed.ok && parsed.tooDeep) return asText(raw, parsed.repaired, parsed.doubleEncoded);
  return parsed;
}

function asText(text: string, repaired: boolean, doubleEncoded: boolean): JsonParse {
  return { ok: true, value: text, repaired, doubleEncoded, tooDeep: true };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
