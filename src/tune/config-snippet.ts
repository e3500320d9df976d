import { stringify } from 'yaml';
import type { ProviderEntry, RendererEntry } from '../config/config-schema.js';
import type { VariantSpec } from '../config/variant-schema.js';
import type { Strategy } from '../plugins/index.js';

/** A provider's recommendation: its label, its config entry (credentials redacted) and the strategy chosen for it. */
export interface Recommendation {
  provider: string;
  entry: ProviderEntry;
  strategy: Strategy;
}

/**
 * The config lines that run each provider with its recommended strategy, to paste into toolgauge.config.yaml: one
 * renderer entry per strategy (named with the providers it runs with), the catalog variants they use (a swept point
 * as a one-value sweep, so the label stays the one the tune reported) and the seed simulated personas were run with.
 * Paths in a variant are as the space file wrote them (relative to it).
 */
export function configSnippet(recommendations: readonly Recommendation[], seed: number): string {
  if (recommendations.length === 0) return '';
  const byLabel = new Map<string, { strategy: Strategy; providers: string[] }>();
  for (const r of recommendations) {
    const entry = byLabel.get(r.strategy.label);
    if (entry) entry.providers.push(r.provider);
    else byLabel.set(r.strategy.label, { strategy: r.strategy, providers: [r.provider] });
  }
  const renderers: RendererEntry[] = [];
  const variants = new Map<string, VariantSpec>();
  for (const { strategy, providers } of byLabel.values()) {
    const entry: Exclude<RendererEntry, string> = { name: strategy.name };
    if (Object.keys(strategy.options).length) entry.options = strategy.options;
    const v = strategy.variant?.variant;
    if (v) {
      entry.variants = [v.base];
      const spec: VariantSpec = { ...(v.spec as VariantSpec), name: v.base };
      if (v.sweep) spec.sweep = Object.fromEntries(Object.entries(v.sweep).map(([k, x]) => [k, [x]]));
      variants.set(v.base, spec);
    }
    entry.providers = providers;
    renderers.push(entry);
  }
  const config: Record<string, unknown> = { renderers };
  if (variants.size) config.variants = [...variants.values()];
  config.providers = recommendations.map((r) => r.entry);
  config.seed = seed;
  return stringify(config, { lineWidth: 0 });
}
