/*
 * Packing rule d (docs/run-log.md): a long string met again in a case record is written once. A real provider's
 * reply text is also in its raw wire response, and the next turn's raw request carries it back (with each tool
 * result); a system prompt stored as a blob is also in the first raw request. Every later occurrence is written as
 * null, and the record's `same` lists, per string, where it is written first (a path into the record as written, or
 * the hash of a blob holding it) followed by the paths of its other occurrences.
 *
 * Paths are arrays of object keys and array indices into the record as the log holds it (after the other rules),
 * so this rule is the last applied on write and the first undone on read.
 */

/** Strings at least this long are written once per record (a path costs ~100 characters). */
export const MIN_REPEATED_CHARS = 1024;
/** Values nested deeper than this are not searched (a model's arguments may nest thousands of levels). */
const MAX_DEPTH = 48;

export type JsonPath = (string | number)[];
/** One string: where it is first (a path, or a blob's hash), then where it occurs again. */
export type SameEntry = [JsonPath | string, ...JsonPath[]];

const isPlain = (v: object) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * The long strings of `root` that occur more than once (or that equal a blob's text: `blobOf` gives its hash), as
 * `same` entries in the order met; undefined when there are none. Walks `root` as JSON writes it (keys in order,
 * undefined members left out; objects that are not plain, written by their toJSON, are not searched).
 */
export function findRepeatedStrings(
  root: Record<string, unknown>,
  blobOf: (text: string) => string | undefined,
): SameEntry[] | undefined {
  const seen = new Map<string, SameEntry>();
  const path: JsonPath = [];
  let repeated = false;
  const visit = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      if (v.length < MIN_REPEATED_CHARS) return;
      const entry = seen.get(v);
      if (entry) {
        entry.push([...path]);
        repeated = true;
        return;
      }
      const hash = blobOf(v);
      if (hash !== undefined) repeated = true;
      seen.set(v, hash !== undefined ? [hash, [...path]] : [[...path]]);
      return;
    }
    if (typeof v !== 'object' || v === null || depth >= MAX_DEPTH) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        visit(v[i], depth + 1);
        path.pop();
      }
      return;
    }
    if (!isPlain(v)) return;
    for (const k of Object.keys(v)) {
      const member = (v as Record<string, unknown>)[k];
      if (member === undefined || typeof member === 'function') continue;
      path.push(k);
      visit(member, depth + 1);
      path.pop();
    }
  };
  visit(root, 0);
  if (!repeated) return undefined;
  return [...seen.values()].filter((e) => e.length > 1);
}

/**
 * Writes null at every repeated occurrence of `same` in `root`. `root` is a fresh object; the containers along each
 * path are copied before they are changed (the record given to the writer is never modified).
 */
export function blankRepeats(root: Record<string, unknown>, same: SameEntry[]): void {
  const fresh = new Set<unknown>([root]);
  for (const [, ...targets] of same) {
    for (const target of targets) {
      let parent = root as Record<string | number, unknown>;
      for (let i = 0; i < target.length - 1; i++) {
        const k = target[i] as string | number;
        let child = parent[k] as Record<string | number, unknown>;
        if (!fresh.has(child)) {
          child = (Array.isArray(child) ? [...child] : { ...child }) as Record<string | number, unknown>;
          parent[k] = child;
          fresh.add(child);
        }
        parent = child;
      }
      parent[target[target.length - 1] as string | number] = null;
    }
  }
}

/**
 * Puts each string of `same` back where the record holds null for it (a record read from a log: changed in place).
 * Throws an Error naming what is wrong for a `same` that does not fit the record.
 */
export function restoreRepeats(root: Record<string, unknown>, same: unknown, blobText: (hash: string) => string): void {
  if (!Array.isArray(same)) throw new Error('same: not a list');
  for (const [n, entry] of same.entries()) {
    if (!Array.isArray(entry) || entry.length < 2) throw new Error(`same.${n}: not [from, to…]`);
    const [from, ...targets] = entry as unknown[];
    const text = typeof from === 'string' ? blobText(from) : at(root, from, `same.${n}`);
    if (typeof text !== 'string') throw new Error(`same.${n}: the first occurrence is not a string`);
    for (const target of targets) {
      const where = `same.${n}`;
      if (!Array.isArray(target) || target.length === 0) throw new Error(`${where}: a path is empty`);
      const parent = at(root, target.slice(0, -1), where) as Record<string | number, unknown>;
      const key = target[target.length - 1] as string | number;
      if (typeof parent !== 'object' || parent === null || parent[key] !== null)
        throw new Error(`${where}: ${JSON.stringify(target)} holds no null to restore`);
      parent[key] = text;
    }
  }
}

function at(root: unknown, path: unknown, where: string): unknown {
  if (!Array.isArray(path)) throw new Error(`${where}: a path is not a list`);
  let v = root;
  for (const k of path) {
    if ((typeof k !== 'string' && typeof k !== 'number') || typeof v !== 'object' || v === null || !Object.hasOwn(v, k))
      throw new Error(`${where}: ${JSON.stringify(path)} is not in the record`);
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}
