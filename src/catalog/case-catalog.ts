import type { Suite, SuiteCase } from '../contracts/suite.js';

/** What a case's catalog needs of its suite. */
type SuiteView = Pick<Suite, 'name' | 'toolFilter'>;

import type { Catalog, ToolDef } from '../contracts/tool.js';
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
