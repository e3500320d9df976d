import { depthExceeds } from './json-depth.js';

/** Options of jsonText. */
export interface JsonTextOptions {
  /** Spaces per level, as JSON.stringify's third argument (0: one line). */
  indent?: number;
  /**
   * With `indent`: how many levels are indented; containers nested deeper are written on one line. Indenting every
   * level makes the text grow with the square of the depth (5,000 levels: 50 MB for a 30 KB value).
   */
  indentLevels?: number;
  /** Object keys in sorted order at every depth (canonical JSON). */
  sortKeys?: boolean;
}

/**
 * `JSON.stringify(value, null, indent)`, byte for byte, at any depth. V8's JSON.stringify recurses on the native
 * stack and throws "Maximum call stack size exceeded" on values nested a few thousand levels deep (a model can write
 * such arguments, JSON.parse reads them fine): then the value is written by an explicit-stack writer instead, so a
 * run log, a report or a cassette never fails on a value it was handed. `sortKeys` writes object keys sorted (the
 * writer is then used from the start: see canonical-json.ts). Like JSON.stringify: undefined for a top-level value
 * JSON cannot hold (undefined, a function), `toJSON` honoured, non-finite numbers as null, a BigInt a TypeError.
 */
export function jsonText(value: unknown, options: JsonTextOptions = {}): string | undefined {
  const indent = options.indent ?? 0;
  const indentLevels = indent > 0 ? (options.indentLevels ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
  const flat = indentLevels !== Number.POSITIVE_INFINITY && depthExceeds(value, indentLevels);
  if (!options.sortKeys && !flat) {
    try {
      return JSON.stringify(value, null, indent);
    } catch (e) {
      if (!isStackOverflow(e)) throw e;
    }
  }
  return writeIteratively(value, indent, indentLevels, options.sortKeys === true);
}

/** The RangeError V8 throws when recursion runs out of stack. */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

interface Frame {
  /** The container being written. */
  readonly value: object;
  /** Its keys (objects) or null (arrays). */
  readonly keys: string[] | null;
  next: number;
  /** Members written so far (an object's members that JSON cannot hold are skipped). */
  written: number;
}

function writeIteratively(root: unknown, indent: number, indentLevels: number, sortKeys: boolean): string | undefined {
  const first = prepare(root, '');
  if (!isContainer(first)) return scalar(first);
  const parts: string[] = [];
  // the members of a container at `level` (1 = the outermost) go on lines of their own while it is indented
  const indented = (level: number) => indent > 0 && level <= indentLevels;
  const pad = (level: number) => (indented(level) ? `\n${' '.repeat(indent * level)}` : '');
  const stack: Frame[] = [];
  const open = (value: object) => {
    const keys = Array.isArray(value) ? null : sortKeys ? sortedKeys(value) : Object.keys(value);
    parts.push(keys ? '{' : '[');
    stack.push({ value, keys, next: 0, written: 0 });
  };
  open(first);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const level = stack.length;
    const length = frame.keys ? frame.keys.length : (frame.value as unknown[]).length;
    if (frame.next >= length) {
      stack.pop();
      if (frame.written > 0 && indented(level)) parts.push(`\n${' '.repeat(indent * (level - 1))}`);
      parts.push(frame.keys ? '}' : ']');
      continue;
    }
    const i = frame.next++;
    const key = frame.keys ? (frame.keys[i] as string) : String(i);
    const member = prepare((frame.value as Record<string, unknown>)[key], key);
    if (frame.keys) {
      // an object member JSON cannot hold is left out; an array element becomes null
      if (!isContainer(member) && scalar(member) === undefined) continue;
      parts.push(`${frame.written > 0 ? ',' : ''}${pad(level)}${JSON.stringify(key)}${indented(level) ? ': ' : ':'}`);
    } else parts.push(`${frame.written > 0 ? ',' : ''}${pad(level)}`);
    frame.written++;
    if (isContainer(member)) open(member);
    else parts.push(scalar(member) ?? 'null');
  }
  return parts.join('');
}

/**
 * The keys in the order an object built by inserting them sorted lists them, as canonical-json.ts's copy does:
 * array-index keys (`"9"`, `"10"`) first in numeric order, then the others sorted.
 */
function sortedKeys(value: object): string[] {
  const order: Record<string, true> = Object.create(null);
  for (const key of Object.keys(value).sort()) order[key] = true;
  return Object.keys(order);
}

/** The value after `toJSON` (as JSON.stringify calls it, with the member's key). */
function prepare(value: unknown, key: string): unknown {
  if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return (toJSON as (k: string) => unknown).call(value, key);
  }
  return value;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** A scalar's JSON text (JSON.stringify of one level cannot recurse), undefined when JSON cannot hold it. */
function scalar(value: unknown): string | undefined {
  return JSON.stringify(value);
}
