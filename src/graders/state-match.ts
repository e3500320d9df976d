import { showPath } from '../util/state-path.js';
import { maxMatching } from './assignment.js';

/** How an expected value is compared with the value read. */
export type MatchMode = 'equals' | 'subset';

const SHOWN_CHARS = 60;

/** A value for a reason: short JSON, cut with an ellipsis. */
export function shortValue(v: unknown): string {
  let text: string;
  try {
    text = v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v));
  } catch {
    text = String(v);
  }
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where `actual` differs from `expected`, as one phrase (`at .B2: 41, expected 42`), or undefined when it matches.
 * `equals`: the same JSON value (object keys in any order, arrays in order). `subset`: every key of an expected
 * object is in the actual one and matches there, every element of an expected array matches a different element of
 * the actual one (in any order), an expected string is contained in the actual string; other values as `equals`.
 * Numbers match when they differ by at most `tolerance` (default 0: equal).
 */
export function mismatch(
  expected: unknown,
  actual: unknown,
  mode: MatchMode,
  tolerance = 0,
  at: (string | number)[] = [],
): string | undefined {
  const here = () => (at.length > 0 ? `at ${showPath(at)}: ` : '');
  if (typeof expected === 'number') {
    if (typeof actual === 'number' && Math.abs(actual - expected) <= tolerance) return undefined;
    const within = tolerance > 0 ? ` (±${tolerance})` : '';
    return `${here()}${shortValue(actual)}, expected ${shortValue(expected)}${within}`;
  }
  if (typeof expected === 'string' && mode === 'subset') {
    if (typeof actual === 'string' && actual.includes(expected)) return undefined;
    return `${here()}${shortValue(actual)}, expected it to contain ${shortValue(expected)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${here()}${shortValue(actual)}, expected a list`;
    if (mode === 'equals') {
      if (actual.length !== expected.length)
        return `${here()}${actual.length} item(s), expected ${expected.length}: ${shortValue(actual)}`;
      for (let i = 0; i < expected.length; i++) {
        const d = mismatch(expected[i], actual[i], mode, tolerance, [...at, i]);
        if (d) return d;
      }
      return undefined;
    }
    // each expected item needs its own actual item: a maximum matching, so no valid pairing is missed
    const fits = actual.map((a) => expected.map((e) => mismatch(e, a, mode, tolerance) === undefined));
    const owner = maxMatching(fits, expected.length);
    const i = owner.indexOf(undefined);
    if (i < 0) return undefined;
    return `${here()}no item matches ${shortValue(expected[i])} (expected item ${i + 1} of ${expected.length})`;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${here()}${shortValue(actual)}, expected an object`;
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key))
        return `at ${showPath([...at, key])}: missing, expected ${shortValue(expected[key])}`;
      const d = mismatch(expected[key], actual[key], mode, tolerance, [...at, key]);
      if (d) return d;
    }
    if (mode === 'equals') {
      const extra = Object.keys(actual).find((k) => !Object.hasOwn(expected, k));
      if (extra !== undefined) return `at ${showPath([...at, extra])}: ${shortValue(actual[extra])}, expected nothing`;
    }
    return undefined;
  }
  return expected === actual ? undefined : `${here()}${shortValue(actual)}, expected ${shortValue(expected)}`;
}
