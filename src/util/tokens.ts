import { createRequire } from 'node:module';
import type { RenderedRequest } from '../contracts/renderer.js';

type O200k = typeof import('gpt-tokenizer/encoding/o200k_base');

/**
 * Token counts with gpt-tokenizer's o200k_base encoding (GPT-4o, GPT-4.1, GPT-5, o-series).
 * Exact for those OpenAI models; for every other model (Claude, Llama, Qwen…) it is an estimate, good for
 * comparing renderers with each other, not for billing. The encoding's tables are large, so they are loaded
 * lazily (CommonJS build, synchronous require on first use) to keep CLI start-up fast.
 */
let encoding: O200k | undefined;

function o200k(): O200k {
  if (!encoding) {
    const require = createRequire(import.meta.url);
    encoding = require('gpt-tokenizer/encoding/o200k_base') as O200k;
  }
  return encoding;
}

/** Number of o200k_base tokens in `text`. Special-token text such as `<|endoftext|>` counts as ordinary text. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return o200k().encode(text, { disallowedSpecial: new Set() }).length;
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
