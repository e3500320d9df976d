import { CatalogMemo } from '../catalog/case-catalog.js';
import type { ProviderKind } from '../contracts/model.js';
import type { PreparedRenderer } from '../contracts/renderer.js';
import type { Catalog } from '../contracts/tool.js';
import type { Strategy } from '../plugins/index.js';
import { SearchIndexes } from '../presentation/tool-search.js';
import { PromptTokens } from './prompt-tokens.js';

/**
 * What one run (eval, render, regrade, an export) computes once and reuses across its cases: the catalogs (schema
 * cache files, drift, hashes), the renderers prepared per (strategy, catalog, provider) and the prompts' token counts.
 * Created by the command (runEval makes one when given none) and passed down; nothing of it outlives the run, so two
 * runs in one process share nothing.
 */
export class RunContext {
  readonly catalogs = new CatalogMemo();
  readonly prompts = new PromptTokens();
  /** The tool-search indexes, one per case catalog a search strategy showed. */
  readonly searches = new SearchIndexes();
  private readonly prepared = new WeakMap<Catalog, WeakMap<Strategy, Map<string, PreparedRenderer>>>();

  /** `strategy`'s renderer prepared for `catalog` and `provider`, once per run. */
  prepare(strategy: Strategy, catalog: Catalog, provider: { id: string; kind: ProviderKind }): PreparedRenderer {
    let byStrategy = this.prepared.get(catalog);
    if (!byStrategy) {
      byStrategy = new WeakMap();
      this.prepared.set(catalog, byStrategy);
    }
    let byProvider = byStrategy.get(strategy);
    if (!byProvider) {
      byProvider = new Map();
      byStrategy.set(strategy, byProvider);
    }
    const key = `${provider.kind}\u0000${provider.id}`;
    let prepared = byProvider.get(key);
    if (!prepared) {
      prepared = strategy.renderer.prepare({ catalog, options: strategy.options, provider });
      byProvider.set(key, prepared);
    }
    return prepared;
  }
}
