import type { Suite, SuiteCase } from '../contracts/suite.js';

/** What a case's catalog needs of its suite. */
type SuiteView = Pick<Suite, 'name' | 'toolFilter'>;

import type { Catalog, ToolDef } from '../contracts/tool.js';
import { applyVariant, type ResolvedVariant, type VariantView } from '../presentation/apply-variant.js';
import { hashOf } from '../util/canonical-json.js';
import { filterTools } from '../util/tool-filter.js';
import { diffCatalogs, hasDrift, readSchemaCache, schemaCachePath } from './schema-cache.js';

export interface CaseCatalogInput {
  /** The suite's tools as the live servers list them. */
  live: Catalog;
  /** The renderer reads the committed schema cache instead of the live catalog. */
  useCache: boolean;
  /** Folder holding `schemas/<suite>.json` (the config's folder). */
  schemaDir: string;
  suite: SuiteView;
  testCase: SuiteCase;
}

/**
 * The catalog one case is rendered with: the live tools, or the committed schema cache (with its drift
 * against the live servers) for renderers that read it, narrowed by the suite's and the case's tool
 * filters. Shared by eval, render and regrade so all three show the model the same tools.
 * Given the run's `memo`, the cache file is read, the drift found and each tool list hashed once per run, and the
 * cases that see the same tools get the same Catalog object (which the run's prepared renderers are keyed by).
 */
export function caseCatalog(input: CaseCatalogInput, memo: CatalogMemo = new CatalogMemo()): Catalog {
  const base = input.useCache ? memo.cached(input.schemaDir, input.suite.name, input.live) : input.live;
  const tools = filterTools(base.tools, input.suite.toolFilter, input.testCase.tools);
  return memo.view(base, tools);
}

/** What one run (or one render, regrade…) reads and derives about catalogs once: it lives as long as the run. */
export class CatalogMemo {
  /** Schema cache files by path, each with its drift against a live tool list. */
  private readonly files = new Map<string, { cached: Catalog; withDrift: WeakMap<ToolDef[], Catalog> }>();
  /** The case catalogs by (base catalog, filtered tools). */
  private readonly views = new WeakMap<Catalog, WeakMap<ToolDef[], Catalog>>();
  /** Case catalogs under a variant, by (case catalog, variant). */
  private readonly variants = new WeakMap<Catalog, WeakMap<ResolvedVariant, VariantView>>();
  /** The names and descriptions of a case catalog's tools (what a simulated persona may confuse), by catalog. */
  private readonly summaries = new WeakMap<Catalog, { name: string; description: string }[]>();
  /** The tool names of a suite's whole catalog (distractors never take one), by its tool list. */
  private readonly names = new WeakMap<ToolDef[], ReadonlySet<string>>();

  /**
   * `catalog` (a case's, filtered) under `variant`, once per pair: the cases that see the same tools get the same
   * catalog object, which the run's prepared renderers are keyed by. `suite` is the suite's whole live catalog.
   */
  variant(catalog: Catalog, variant: ResolvedVariant, suite: Catalog): VariantView {
    let byVariant = this.variants.get(catalog);
    if (!byVariant) {
      byVariant = new WeakMap();
      this.variants.set(catalog, byVariant);
    }
    let view = byVariant.get(variant);
    if (!view) {
      let names = this.names.get(suite.tools);
      if (!names) {
        names = new Set(suite.tools.map((t) => t.name));
        this.names.set(suite.tools, names);
      }
      view = applyVariant(catalog, variant, names);
      byVariant.set(variant, view);
    }
    return view;
  }

  /** The schema cache of `suite`, read once, with its drift against `live` when there is any. */
  cached(schemaDir: string, suite: string, live: Catalog): Catalog {
    const file = schemaCachePath(schemaDir, suite);
    let entry = this.files.get(file);
    if (!entry) {
      entry = { cached: readSchemaCache(schemaDir, suite), withDrift: new WeakMap() };
      this.files.set(file, entry);
    }
    let catalog = entry.withDrift.get(live.tools);
    if (!catalog) {
      const drift = diffCatalogs(entry.cached.tools, live.tools);
      catalog = hasDrift(drift) ? { ...entry.cached, drift } : entry.cached;
      entry.withDrift.set(live.tools, catalog);
    }
    return catalog;
  }

  /** Each tool's name and description (or title) as `catalog` shows them, once per catalog. */
  summary(catalog: Catalog): { name: string; description: string }[] {
    let out = this.summaries.get(catalog);
    if (!out) {
      out = catalog.tools.map((t) => ({ name: t.name, description: t.description ?? t.title ?? '' }));
      this.summaries.set(catalog, out);
    }
    return out;
  }

  /** `base` narrowed to `tools`, hashed; the same object for the same pair. */
  view(base: Catalog, tools: ToolDef[]): Catalog {
    let byTools = this.views.get(base);
    if (!byTools) {
      byTools = new WeakMap();
      this.views.set(base, byTools);
    }
    let catalog = byTools.get(tools);
    if (!catalog) {
      catalog = { ...base, tools, hash: hashOf(tools) };
      byTools.set(tools, catalog);
    }
    return catalog;
  }
}
