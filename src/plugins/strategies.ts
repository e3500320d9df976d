import type { RendererEntry } from '../config/config-schema.js';
import { NO_VARIANT, type VariantSpec } from '../config/variant-schema.js';
import type { Renderer } from '../contracts/renderer.js';
import { ToolgaugeError } from '../errors.js';
import type { ResolvedVariant } from '../presentation/apply-variant.js';
import { strategyLabel } from '../presentation/strategy-key.js';
import type { Where } from './plugin-file.js';
import { resolveRenderer } from './renderer-registry.js';
import { VariantResolver, type VariantWhere } from './variant-resolver.js';

/**
 * One strategy of the experiment: a renderer plus options, on a catalog variant (absent: the catalog unchanged), with
 * the label reports use. The label is the strategy's one key: run log records, plan keys, cassette slots, reports and
 * the baseline comparison all name the strategy by it.
 */
export interface Strategy {
  label: string;
  name: string;
  options: Record<string, unknown>;
  renderer: Renderer;
  variant?: ResolvedVariant;
  /** Provider labels or globs the strategy runs with (absent: every provider of the run). */
  providers?: string[];
}

export function labelFor(name: string, options: Record<string, unknown>): string {
  const keys = Object.keys(options).sort();
  if (keys.length === 0) return name;
  return `${name}(${keys.map((k) => `${k}=${typeof options[k] === 'string' ? options[k] : JSON.stringify(options[k])}`).join(',')})`;
}

/** The config's variants and where each is defined, for the strategies that run on them. */
export interface VariantDefs {
  list: readonly VariantSpec[];
  where: VariantWhere;
}

/**
 * The config's renderer entries as strategies: each entry on each variant its `variants` list names (a swept variant
 * stands for one strategy per point), in the order listed. Two strategies with the same label are a config error.
 */
export async function resolveStrategies(
  entries: RendererEntry[],
  baseDir: string,
  where: Where,
  variants: VariantDefs = { list: [], where: (i) => `variants[${i}]` },
): Promise<Strategy[]> {
  const resolver = new VariantResolver(variants.list, baseDir, variants.where);
  const out: Strategy[] = [];
  const at: number[] = [];
  for (const [i, entry] of entries.entries()) {
    const {
      name,
      options = {},
      label,
      variants: names,
      providers,
    } = typeof entry === 'string' ? { name: entry } : entry;
    const only = providers ? { providers } : {};
    const renderer = await resolveRenderer(name, baseDir, () => where(i));
    const base = label ?? labelFor(name, options);
    for (const variantName of names ?? [NO_VARIANT]) {
      if (variantName === NO_VARIANT) {
        out.push({ label: base, name, options, renderer, ...only });
        at.push(i);
        continue;
      }
      for (const variant of await resolver.resolve(variantName, () => where(i))) {
        out.push({ label: strategyLabel(base, variant.variant.name), name, options, renderer, variant, ...only });
        at.push(i);
      }
    }
  }
  const labels = new Set<string>();
  for (const [j, s] of out.entries()) {
    if (labels.has(s.label))
      throw new ToolgaugeError('CONFIG_INVALID', `${where(at[j] ?? 0)}: duplicate renderer strategy '${s.label}'`);
    labels.add(s.label);
  }
  return out;
}
