import type { ProviderFactory } from '../src/contracts/provider.js';
import { anthropicFactory } from './anthropic/index.js';
import { ollamaFactory } from './ollama/index.js';
import { openaiFactory } from './openai/index.js';
import { openaiCompatibleFactory } from './openai-compatible/index.js';
import { simFactory } from './simulated/index.js';

/** Provider factories by id prefix: `openai:gpt-4o-mini` → openai. */
export const providerFactories = {
  openai: openaiFactory,
  anthropic: anthropicFactory,
  ollama: ollamaFactory,
  'openai-compatible': openaiCompatibleFactory,
  sim: simFactory,
} satisfies Record<string, ProviderFactory>;
