import type { ProviderFactory } from '../src/contracts/provider.js';
import { anthropicFactory } from './anthropic/index.js';
import type { ProviderPrefix } from './index.js';
import { ollamaFactory } from './ollama/index.js';
import { openaiFactory } from './openai/index.js';
import { openaiCompatibleFactory } from './openai-compatible/index.js';
import { simFactory } from './simulated/index.js';

/**
 * Every built-in provider factory, loaded (imports every SDK: for embedders that create providers synchronously).
 * Typed by the prefixes of providers/index.ts, so the two lists cannot differ.
 */
export const providerFactories = {
  openai: openaiFactory,
  anthropic: anthropicFactory,
  ollama: ollamaFactory,
  'openai-compatible': openaiCompatibleFactory,
  sim: simFactory,
} satisfies Record<ProviderPrefix, ProviderFactory>;
