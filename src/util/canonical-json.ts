import { createHash } from 'node:crypto';
import { isStackOverflow, jsonText } from './json-text.js';

/**
 * JSON with object keys sorted at every depth, so equal values hash equally. Every key is an ordinary key,
 * `__proto__` included (a schema may name a property so, and two schemas that differ by it must not hash alike).
 * Any depth: a value too deep for the recursive copy is written by jsonText's explicit-stack writer, with the same
 * output.
 */
export function canonicalJson(value: unknown): string {
  let sorted: unknown;
  try {
    sorted = sortKeys(value);
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return jsonText(value, { sortKeys: true }) as string;
  }
  return jsonText(sorted) as string;
}

/**
 * A copy with keys in sorted order (JSON.stringify writes them in insertion order). Objects are built on a null
 * prototype: there `out.__proto__ = v` would set the prototype, not a key, and JSON.stringify would drop it.
 */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** SHA-256 of a text, in hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** SHA-256 of a value's canonical JSON. */
export function hashOf(value: unknown): string {
  return sha256(canonicalJson(value));
}
