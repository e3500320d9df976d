import type { BuiltinProviderPrefix } from '../src/config/provider-options-schema.js';
import type { ProviderFactory } from '../src/contracts/provider.js';

/**
 * The built-in provider factories by id prefix (`openai:gpt-4o-mini` → openai), each loaded on first use: importing
 * every provider SDK (openai, @anthropic-ai/sdk, ollama) cost most of the CLI's start-up, even for runs that use only
 * `sim:*`. The one list of built-in providers; providers/provider-factories.ts holds them loaded, for embedders.
 */
export const providerLoaders = {
  openai: async () => (await import('./openai/index.js')).openaiFactory,
  anthropic: async () => (await import('./anthropic/index.js')).anthropicFactory,
  ollama: async () => (await import('./ollama/index.js')).ollamaFactory,
  'openai-compatible': async () => (await import('./openai-compatible/index.js')).openaiCompatibleFactory,
  sim: async () => (await import('./simulated/index.js')).simFactory,
} satisfies Record<BuiltinProviderPrefix, () => Promise<ProviderFactory>>;

export type ProviderPrefix = keyof typeof providerLoaders;

export function isProviderPrefix(prefix: string): prefix is ProviderPrefix {
  return Object.hasOwn(providerLoaders, prefix);
}
