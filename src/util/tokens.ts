import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { z } from 'zod';
import type { RenderedRequest } from '../contracts/renderer.js';
import { packageRoot } from './package-root.js';

type GptEncodingModule = typeof import('gpt-tokenizer/GptEncoding');
type O200k = Pick<ReturnType<GptEncodingModule['GptEncoding']['getEncodingApi']>, 'countTokens'>;

/** Where `npm run build` writes gpt-tokenizer's o200k_base table as JSON (scripts/o200k-ranks.mjs). */
export const RANKS_FILE = join('dist', 'o200k_base.ranks.json');

/** The ranks file: the table as the package ships it, stamped with the package version it was taken from. */
const RanksFile = z.object({
  source: z.string(),
  // 200,000 entries: checked as an array, not entry by entry (the stamp says which table it is)
  ranks: z.custom<(string | number[])[]>((v) => Array.isArray(v) && v.length > 0),
});

const require = createRequire(import.meta.url);

/**
 * Token counts with gpt-tokenizer's o200k_base encoding (GPT-4o, GPT-4.1, GPT-5, o-series).
 * Exact for those OpenAI models; for every other model (Claude, Llama, Qwen…) it is an estimate, good for
 * comparing renderers with each other, not for billing. The encoding's tables are large, so they are loaded
 * lazily (synchronously, on the first count) to keep CLI start-up fast.
 */
let encoding: O200k | undefined;

function o200k(): O200k {
  encoding ??= o200kFromRanksFile(join(packageRoot(), RANKS_FILE)) ?? o200kFromPackage();
  return encoding;
}

/** The package's own module: compiles its 2.2 MB JavaScript table (~20 MB more peak RSS than the JSON file). */
export function o200kFromPackage(): O200k {
  return require('gpt-tokenizer/encoding/o200k_base') as O200k;
}

/**
 * The same encoding built from the JSON copy of the package's table, or undefined when the file is missing (a
 * source checkout not built yet), unreadable, or was taken from another version of the package than the one
 * installed: then the package's own module is used, so counts never depend on which one loaded.
 */
export function o200kFromRanksFile(file: string): O200k | undefined {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  const parsed = RanksFile.safeParse(data);
  if (!parsed.success || parsed.data.source !== ranksSource()) return undefined;
  const { GptEncoding } = require('gpt-tokenizer/GptEncoding') as GptEncodingModule;
  const { ranks } = parsed.data;
  return GptEncoding.getEncodingApi('o200k_base', () => ranks);
}

/** The stamp a ranks file taken from the installed gpt-tokenizer carries. */
export function ranksSource(): string {
  const { version } = require('gpt-tokenizer/package.json') as { version: string };
  return `gpt-tokenizer@${version} bpeRanks/o200k_base`;
}

/** Special tokens none: `<|endoftext|>` in a prompt is counted as the ordinary text it is. Never mutated. */
const NO_SPECIAL = new Set<string>();

/** Number of o200k_base tokens in `text`. Special-token text such as `<|endoftext|>` counts as ordinary text. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return o200k().countTokens(text, { disallowedSpecial: NO_SPECIAL });
}

/**
 * Prompt size of a rendered request: system prompt + message contents + JSON of the native tool definitions.
 * Ignores each API's per-message framing tokens (a handful per message), so it is a lower bound even for OpenAI.
 */
export function requestTokens(req: RenderedRequest): number {
  let total = countTokens(req.system);
  for (const message of req.messages) total += countTokens(message.content);
  if (req.tools && req.tools.length > 0) total += countTokens(toolsWireJson(req.tools));
  return total;
}

/** The JSON of native tool definitions as counted: name, description and parameters of each. */
export function toolsWireJson(tools: NonNullable<RenderedRequest['tools']>): string {
  return JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })));
}
