import type { StatePath } from '../contracts/state.js';

/**
 * The value at `path` inside a JSON value: `found` false when a key is missing, or an index is out of range, or the
 * path goes through something that is neither an object nor an array. A string key reads an object's own property
 * (never one inherited: `__proto__` or `constructor` is a missing key), a number an array's element.
 */
export function valueAt(root: unknown, path: readonly (string | number)[]): { found: boolean; value?: unknown } {
  let at: unknown = root;
  for (const key of path) {
    if (Array.isArray(at)) {
      const i = typeof key === 'number' ? key : /^(0|[1-9]\d*)$/.test(key) ? Number(key) : -1;
      if (i < 0 || i >= at.length) return { found: false };
      at = at[i];
    } else if (typeof at === 'object' && at !== null) {
      const k = String(key);
      if (!Object.hasOwn(at, k)) return { found: false };
      at = (at as Record<string, unknown>)[k];
    } else return { found: false };
  }
  return { found: true, value: at };
}

/** The same path written the same way (a number and its digits as a string are one key). */
export function samePath(a: StatePath, b: StatePath): boolean {
  return a.length === b.length && a.every((k, i) => String(k) === String(b[i]));
}

/** A path as people read it: `parameters.income_tax_rate`, `files["src/app.ts"]`, `rows[2]`. */
export function showPath(path: StatePath): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out || '(the whole view)';
}
