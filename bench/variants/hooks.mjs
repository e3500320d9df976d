/** Module hooks for register.mjs: a module named in `without` resolves to its stub instead. */
const STUBS = {
  // src/config/plain-yaml: every text is "not plain", so fast-yaml.ts hands every part to js-yaml
  'plain-yaml': new URL('./no-plain-yaml.mjs', import.meta.url).href,
  // src/graders/schema-subset: no schema is in the subset, so schema-check.ts compiles every schema with ajv
  'schema-subset': new URL('./no-schema-subset.mjs', import.meta.url).href,
};

let without = [];

export function initialize(data) {
  without = data.without;
  for (const name of without) if (!STUBS[name]) throw new Error(`TG_BENCH_WITHOUT: no stub for '${name}'`);
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  for (const name of without) {
    // the built module (dist/src/…/name.js) or its source through tsx (src/…/name.ts)
    if (new RegExp(`/src/(config|graders)/${name}\\.(js|ts)$`).test(resolved.url)) {
      return { url: STUBS[name], shortCircuit: true };
    }
  }
  return resolved;
}
