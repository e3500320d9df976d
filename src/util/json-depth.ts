/**
 * How deep a JSON value read from a model may nest: objects and arrays inside each other, the outermost counting 1
 * (`{"a": [1]}` is 2 deep). Real tool arguments nest a handful of levels; serde_json's default recursion limit is 128
 * too. The parser keeps a value nested deeper as its JSON text (json-args.ts), so the graders, the reasons and every
 * recursive walk over arguments see at most this depth, whatever a model writes.
 */
export const MAX_JSON_DEPTH = 128;

/** Whether `value` nests objects/arrays more than `max` levels deep. Explicit stack: safe at any depth. */
export function depthExceeds(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<{ value: object; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop() as { value: object; depth: number };
    if (depth > max) return true;
    const members = Array.isArray(v) ? v : Object.values(v);
    for (const m of members) if (typeof m === 'object' && m !== null) stack.push({ value: m, depth: depth + 1 });
  }
  return false;
}

/**
 * Whether JSON text nests brackets more than `max` levels deep (brackets inside strings do not count). Reads the
 * text, not a value: for arguments kept as text because they nest too deep.
 */
export function textDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  if (text.length <= 2 * max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Per value: whether it reaches MAX_JSON_DEPTH (graders ask once per pair of call and expected call). */
const deepValues = new WeakMap<object, boolean>();

/**
 * Whether a call's arguments nest MAX_JSON_DEPTH levels deep or more: the JSON text the parser keeps for arguments
 * nested deeper, arguments the parser bounded to that depth (json-args.ts: what lies below is text), or (from a path
 * that bounds nothing) the value itself. Graders judge such arguments without walking them.
 */
export function nestsTooDeep(args: unknown): boolean {
  if (typeof args === 'string') return textDepthExceeds(args, MAX_JSON_DEPTH - 1);
  if (typeof args !== 'object' || args === null) return false;
  let deep = deepValues.get(args);
  if (deep === undefined) {
    deep = depthExceeds(args, MAX_JSON_DEPTH - 1);
    deepValues.set(args, deep);
  }
  return deep;
}
