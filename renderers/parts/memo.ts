/**
 * The case-independent part of a render (parsed options, the tool section, native tool definitions), built once per
 * (tool list, options, variant) instead of once per case. The runner hands every unfiltered case of a suite the same
 * tools array and every case of a strategy the same options object, so a 1,000-case suite builds its tool section
 * once (it was ~20 µs a case for full-details, more for native schemas on a 25-tool server). Keyed by identity in
 * WeakMaps: nothing outlives the catalog, and a caller that builds new arrays or options per call simply gets no
 * hits, never a stale answer. The values are shared between cases: treat them as read-only.
 */
export function memoPerCatalog<T>(): (
  tools: object,
  options: object | undefined,
  variant: string,
  build: () => T,
) => T {
  const byTools = new WeakMap<object, WeakMap<object, Map<string, T>>>();
  return (tools, options, variant, build) => {
    let byOptions = byTools.get(tools);
    if (!byOptions) {
      byOptions = new WeakMap();
      byTools.set(tools, byOptions);
    }
    const optionsKey = options ?? NO_OPTIONS;
    let byVariant = byOptions.get(optionsKey);
    if (!byVariant) {
      byVariant = new Map();
      byOptions.set(optionsKey, byVariant);
    }
    if (byVariant.has(variant)) return byVariant.get(variant) as T;
    const value = build();
    byVariant.set(variant, value);
    return value;
  };
}

const NO_OPTIONS = {};
