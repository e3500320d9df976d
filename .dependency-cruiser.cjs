// The layering rule (docs/architecture.md, "Layers"), checked by `npm run lint` through scripts/check-layers.mjs.
'use strict';

const { LAYERS, ROOTS, folderPattern } = require('./scripts/layers.cjs');

const anyOf = (folders) => folders.map(folderPattern).join('|');

/** One rule per layer: its modules import nothing from a layer above it. */
const layerRules = LAYERS.slice(0, -1).map((layer, index) => {
  const above = LAYERS.slice(index + 1);
  const below = LAYERS.slice(0, index + 1).map((l) => l.name);
  return {
    name: `layer-${layer.name.replace(/[^a-z]+/gi, '-').toLowerCase()}`,
    comment: `a module of the ${layer.name} (${layer.folders.join(', ')}) may import only the ${below.join(', ')}; move what both need down to the lowest layer that uses it`,
    severity: 'error',
    from: { path: anyOf(layer.folders) },
    to: { path: anyOf(above.flatMap((l) => l.folders)) },
  };
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'contracts-import-nothing-of-ours',
      comment: 'src/contracts holds the types plugins implement and imports no other folder of the project',
      severity: 'error',
      from: { path: '^src/contracts/' },
      to: { path: `^(${ROOTS.join('|')})/`, pathNot: '^src/contracts/' },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'production code imports no test helper, fixture or benchmark (they live in tests/ and bench/)',
      severity: 'error',
      from: { path: `^(${ROOTS.join('|')})/` },
      to: { path: '^(tests|bench)/|\\.test\\.ts$' },
    },
    {
      name: 'production-code-reached-from-an-entry',
      comment:
        'every module of the build is reached from src/cli/main.ts or src/index.ts; a helper or fixture only tests or bench use goes to tests/helpers or tests/fixtures, outside the build',
      severity: 'error',
      from: { path: '^src/(cli/main|index)\\.ts$' },
      to: { path: `^(${ROOTS.join('|')})/`, pathNot: '^src/(cli/main|index)\\.ts$', reachable: false },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    // type-only imports count: a type from a layer above is a dependency on it
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
