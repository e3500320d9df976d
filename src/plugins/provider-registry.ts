import { isProviderPrefix, providerLoaders } from '../../providers/index.js';
import type { ProviderEntry } from '../config/config-schema.js';
import type { Provider } from '../contracts/provider.js';
import { ToolgaugeError } from '../errors.js';
import { isPluginPath } from '../util/plugin-path.js';
import { registerCredentials } from '../util/redact.js';
import { loadPluginWithOptions, type Where } from './plugin-file.js';

export interface ProviderSlot {
  label: string;
  id: string;
  options: Record<string, unknown>;
  provider: Provider;
}

/**
 * A provider by id: `<prefix>:<model>` for a built-in (its SDK loaded on first use), or a path to a module exporting
 * `provider`: a Provider, or a function making one from the entry's options (checked against the contract).
 */
export async function resolveProvider(
  id: string,
  options: Record<string, unknown>,
  baseDir: string,
  where: () => string,
): Promise<Provider> {
  const colon = id.indexOf(':');
  const prefix = colon < 0 ? id : id.slice(0, colon);
  const model = colon < 0 ? '' : id.slice(colon + 1);
  // a built-in prefix wins: model ids hold slashes (vLLM's Qwen/Qwen2.5-7B-Instruct, OpenRouter's qwen/qwen-2.5-7b…)
  if (isPluginPath(id) && !(colon > 0 && isProviderPrefix(prefix))) {
    return loadPluginWithOptions<Provider>('provider', id, baseDir, options, where);
  }
  if (!isProviderPrefix(prefix) || !model) {
    const valid = Object.keys(providerLoaders)
      .map((p) => (p === 'sim' ? 'sim:<persona>' : `${p}:<model>`))
      .join(', ');
    throw new ToolgaugeError(
      'UNKNOWN_PROVIDER',
      `${where()}: unknown provider '${id}'; valid: ${valid}, or a path to a module exporting \`provider\``,
    );
  }
  const factory = await providerLoaders[prefix]();
  try {
    return factory.create(model, options, { env: process.env });
  } catch (e) {
    if (e instanceof ToolgaugeError) throw new ToolgaugeError(e.code, `${where()}: ${e.message}`, e.details);
    throw e;
  }
}

export async function resolveProviders(
  entries: ProviderEntry[],
  baseDir: string,
  where: Where,
): Promise<ProviderSlot[]> {
  const out: ProviderSlot[] = [];
  for (const [i, entry] of entries.entries()) {
    const { id, options = {}, label } = typeof entry === 'string' ? { id: entry } : entry;
    // before any provider sees its options: a plugin that quotes its key in an error must not print it
    registerCredentials(options);
    const provider = await resolveProvider(id, options, baseDir, () => where(i));
    out.push({ label: label ?? id, id, options, provider });
  }
  return out;
}
