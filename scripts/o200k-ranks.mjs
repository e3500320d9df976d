// Writes dist/o200k_base.ranks.json: gpt-tokenizer's own o200k_base table (bpeRanks/o200k_base.js) as JSON, stamped
// with the package version it came from. src/util/tokens.ts builds the encoding from it: compiling the package's
// 2.2 MB JavaScript table costs ~20 MB more peak RSS than parsing the same table as JSON, paid by every run that
// counts a prompt the token cache has not seen. Run by `npm run build`; an argument writes the file elsewhere.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = require('gpt-tokenizer/package.json');
const ranks = require('gpt-tokenizer/bpeRanks/o200k_base').default;
const file = process.argv[2] ?? join(root, 'dist', 'o200k_base.ranks.json');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify({ source: `gpt-tokenizer@${version} bpeRanks/o200k_base`, ranks }));
