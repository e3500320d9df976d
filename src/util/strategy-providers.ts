import picomatch from 'picomatch';

/** A label test per list of globs: a strategy's `providers` as given in the config. */
const matchers = new WeakMap<readonly string[], (label: string) => boolean>();

/**
 * Whether a strategy that names the providers it runs with (labels or globs: `sim:*`) runs with `provider`; a
 * strategy that names none runs with every provider. The plan and the aggregate ask it of every cell.
 */
export function runsWith(strategy: { providers?: readonly string[] }, provider: string): boolean {
  const globs = strategy.providers;
  if (!globs) return true;
  let test = matchers.get(globs);
  if (!test) {
    const m = picomatch(globs as string[]);
    test = (label) => globs.includes(label) || m(label);
    matchers.set(globs, test);
  }
  return test(provider);
}
