import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { registerCredentials } from '../../providers/shared/redact.js';
import { renderers } from '../../renderers/index.js';
import type { Grader } from '../contracts/grade.js';
import type { Provider, ProviderFactory } from '../contracts/provider.js';
import type { Renderer } from '../contracts/renderer.js';
import { ToolgaugeError } from '../errors.js';
import { graders as builtinGraders } from '../graders/index.js';
import type { ProviderEntry, RendererEntry } from './config-schema.js';

/** One renderer strategy of the experiment: a renderer plus options, with the label reports use. */
export interface Strategy {
  label: string;
  name: string;
  options: Record<string, unknown>;
  renderer: Renderer;
}

/**
 * Provider factories by id prefix, loaded on first use: importing every provider SDK (openai, @anthropic-ai/sdk,
 * ollama) cost most of the CLI's start-up, even for runs that use only `sim:*`. Same names as providers/index.ts
 * (a test keeps them in step).
 */
export const providerLoaders: Record<string, () => Promise<ProviderFactory>> = {
  openai: async () => (await import('../../providers/openai/index.js')).openaiFactory,
  anthropic: async () => (await import('../../providers/anthropic/index.js')).anthropicFactory,
  ollama: async () => (await import('../../providers/ollama/index.js')).ollamaFactory,
  'openai-compatible': async () => (await import('../../providers/openai-compatible/index.js')).openaiCompatibleFactory,
  sim: async () => (await import('../../providers/simulated/index.js')).simFactory,
};

export interface ProviderSlot {
  label: string;
  id: string;
  options: Record<string, unknown>;
  provider: Provider;
}

/** `where` names the origin for error messages: `toolgauge.config.yaml: renderers[1]` or `--renderer`. */
type Where = (index: number) => string;

const isPath = (name: string) => name.includes('/') || /\.(m?js|ts)$/.test(name);

/** `where` is only called for an error message: locating a JSON config's entry loads and runs the YAML parser. */
async function importPlugin(spec: string, baseDir: string, exportName: string, where: () => string): Promise<unknown> {
  const file = isAbsolute(spec) ? spec : resolve(baseDir, spec);
  if (!existsSync(file))
    throw new ToolgaugeError('USAGE', `${where()}: plugin file '${spec}' not found (resolved to ${file})`);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const value = mod[exportName] ?? mod.default;
  if (!value)
    throw new ToolgaugeError('USAGE', `${where()}: '${spec}' must export \`${exportName}\` (or a default export)`);
  return value;
}

export function labelFor(name: string, options: Record<string, unknown>): string {
  const keys = Object.keys(options).sort();
  if (keys.length === 0) return name;
  return `${name}(${keys.map((k) => `${k}=${typeof options[k] === 'string' ? options[k] : JSON.stringify(options[k])}`).join(',')})`;
}

export async function resolveStrategies(entries: RendererEntry[], baseDir: string, where: Where): Promise<Strategy[]> {
  const out: Strategy[] = [];
  for (const [i, entry] of entries.entries()) {
    const { name, options = {}, label } = typeof entry === 'string' ? { name: entry } : entry;
    let renderer: Renderer;
    if (Object.hasOwn(renderers, name)) renderer = renderers[name as keyof typeof renderers];
    else if (isPath(name)) renderer = (await importPlugin(name, baseDir, 'renderer', () => where(i))) as Renderer;
    else {
      throw new ToolgaugeError(
        'UNKNOWN_RENDERER',
        `${where(i)}: unknown renderer '${name}'; valid: ${Object.keys(renderers).join(', ')}, or a path to a module exporting \`renderer\``,
      );
    }
    out.push({ label: label ?? labelFor(name, options), name, options, renderer });
  }
  const labels = new Set<string>();
  for (const [i, s] of out.entries()) {
    if (labels.has(s.label))
      throw new ToolgaugeError('CONFIG_INVALID', `${where(i)}: duplicate renderer strategy '${s.label}'`);
    labels.add(s.label);
  }
  return out;
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
    const colon = id.indexOf(':');
    const prefix = colon < 0 ? id : id.slice(0, colon);
    const model = colon < 0 ? '' : id.slice(colon + 1);
    let provider: Provider;
    if (isPath(id)) {
      const factory = (await importPlugin(id, baseDir, 'provider', () => where(i))) as
        | Provider
        | ((o: unknown) => Provider);
      provider = typeof factory === 'function' ? factory(options) : factory;
    } else {
      const factory = Object.hasOwn(providerLoaders, prefix) ? await providerLoaders[prefix]?.() : undefined;
      if (!factory || !model) {
        const valid = Object.keys(providerLoaders)
          .map((p) => (p === 'sim' ? 'sim:<persona>' : `${p}:<model>`))
          .join(', ');
        throw new ToolgaugeError('UNKNOWN_PROVIDER', `${where(i)}: unknown provider '${id}'; valid: ${valid}`);
      }
      try {
        provider = factory.create(model, options, { env: process.env });
      } catch (e) {
        if (e instanceof ToolgaugeError) throw new ToolgaugeError(e.code, `${where(i)}: ${e.message}`, e.details);
        throw e;
      }
    }
    out.push({ label: label ?? id, id, options, provider });
  }
  return out;
}

export async function resolveGraders(names: string[] | undefined, baseDir: string, where: Where): Promise<Grader[]> {
  if (!names) return Object.values(builtinGraders);
  const out: Grader[] = [];
  for (const [i, name] of names.entries()) {
    if (Object.hasOwn(builtinGraders, name)) out.push(builtinGraders[name as keyof typeof builtinGraders]);
    else if (isPath(name)) out.push((await importPlugin(name, baseDir, 'grader', () => where(i))) as Grader);
    else {
      throw new ToolgaugeError(
        'UNKNOWN_GRADER',
        `${where(i)}: unknown grader '${name}'; valid: ${Object.keys(builtinGraders).join(', ')}, or a path to a module exporting \`grader\``,
      );
    }
  }
  return out;
}
