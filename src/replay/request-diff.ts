import { canonicalJson } from '../util/canonical-json.js';

export interface Difference {
  /** JSON path of the first difference, e.g. `messages[2].content`. */
  path: string;
  recorded: unknown;
  current: unknown;
}

/** The differences between two JSON values, depth first in key order, at most `limit` of them. */
export function diffJson(recorded: unknown, current: unknown, limit = 3): Difference[] {
  const out: Difference[] = [];
  walk(recorded, current, '', out, limit);
  return out;
}

function walk(a: unknown, b: unknown, path: string, out: Difference[], limit: number): void {
  if (out.length >= limit) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`, out, limit);
    return;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) walk(a[k], b[k], path ? `${path}.${k}` : k, out, limit);
    return;
  }
  if (canonicalJson(a) !== canonicalJson(b)) out.push({ path: path || '(request)', recorded: a, current: b });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A short, one-line rendering of a value for an error message; strings are cut around the first difference. */
export function excerpt(value: unknown, other: unknown, width = 60): string {
  if (value === undefined) return '(absent)';
  if (typeof value === 'string' && typeof other === 'string') {
    let i = 0;
    while (i < value.length && i < other.length && value[i] === other[i]) i++;
    const start = Math.max(0, i - 20);
    const cut = value.slice(start, start + width);
    return JSON.stringify(`${start > 0 ? '…' : ''}${cut}${start + width < value.length ? '…' : ''}`);
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > width ? `${text.slice(0, width)}…` : text;
}

export function describeDifferences(diffs: Difference[]): string {
  return diffs
    .map((d) => `${d.path}: recorded ${excerpt(d.recorded, d.current)}, now ${excerpt(d.current, d.recorded)}`)
    .join('; ');
}
