// Bundles the CLI (bin/toolgauge.js → dist/cli/main.js, from src/cli/main.ts) with esbuild: one ESM file per lazily loaded command
// (code splitting) instead of ~300 modules resolved and compiled one by one at every start (zod alone is ~100
// files). Start-up of a one-case eval was ~35% faster bundled (bench/results.md, figure (d)). The library build
// (dist/src, by tsc) is untouched: tests and embedders import modules, only the command line runs the bundle.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'cli');
rmSync(outdir, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // CommonJS dependencies bundled into ESM still call `require` for Node built-ins: give every chunk one.
  banner: {
    js: "import { createRequire as __tgRequire } from 'node:module'; const require = __tgRequire(import.meta.url);",
  },
  // The o200k vocabulary is megabytes of data loaded on demand (src/util/tokens.ts): left in node_modules.
  // tsx loads TypeScript plugins (src/plugins/plugin-file.ts) with esbuild's native binary: imported from node_modules.
  external: ['gpt-tokenizer', 'gpt-tokenizer/*', 'tsx', 'tsx/*'],
  chunkNames: '[name]-[hash]',
  legalComments: 'eof',
  logLevel: 'warning',
});
