/**
 * Whether `a` is written as exactly the JSON of `b`, a value read from JSON (same keys in the same order, same
 * values). Conservative: a value JSON would write differently from how it holds it (undefined, a Date) is unequal.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  try {
    return sameJsonValue(a, b);
  } catch {
    return false; // nested too deep to compare: written whole
  }
}

function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJsonValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (k !== kb[i] || !sameJsonValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
      return false;
  }
  return true;
}
