import { statSync } from 'node:fs';
import type { Suite, SuiteCase } from '../contracts/suite.js';
import type { Catalog, CatalogDrift, ToolDef } from '../contracts/tool.js';
import { hashOf } from '../util/canonical-json.js';
import { diffCatalogs, hasDrift, readSchemaCache, schemaCachePath } from './schema-cache.js';
import { filterTools } from './tool-filter.js';

export interface CaseCatalogInput {
  /** The suite's tools as the live servers list them. */
  live: Catalog;
  /** The renderer reads the committed schema cache instead of the live catalog. */
  useCache: boolean;
  /** Folder holding `schemas/<suite>.json` (the config's folder). */
  schemaDir: string;
  suite: Suite;
  testCase: SuiteCase;
}

/**
 * The catalog one case is rendered with: the live tools, or the committed schema cache (with its drift
 * against the live servers) for renderers that read it, narrowed by the suite's and the case's tool
 * filters. Shared by eval, render and regrade so all three show the model the same tools.
 * Runs once per case, so the cache file, the drift and the hashes are computed once per run, not per case.
 */
export function caseCatalog(input: CaseCatalogInput): Catalog {
  let base = input.live;
  if (input.useCache) {
    const cached = cachedCatalog(input.schemaDir, input.suite.name);
    const drift = driftOf(cached, input.live.tools);
    base = drift ? { ...cached, drift } : cached;
  }
  const tools = filterTools(base.tools, input.suite.toolFilter, input.testCase.tools);
  return { ...base, tools, hash: toolsHash(tools) };
}

const cacheFiles = new Map<string, { mtimeMs: number; catalog: Catalog }>();

/** The schema cache file, re-read only when it changes on disk (a `schemas refresh` in the same process). */
function cachedCatalog(schemaDir: string, suite: string): Catalog {
  const file = schemaCachePath(schemaDir, suite);
  let mtimeMs = -1;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    // missing: readSchemaCache below explains how to create it
  }
  const hit = cacheFiles.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.catalog;
  const catalog = readSchemaCache(schemaDir, suite);
  cacheFiles.set(file, { mtimeMs, catalog });
  return catalog;
}

const drifts = new WeakMap<Catalog, WeakMap<ToolDef[], CatalogDrift | null>>();

function driftOf(cached: Catalog, live: ToolDef[]): CatalogDrift | undefined {
  let byLive = drifts.get(cached);
  if (!byLive) {
    byLive = new WeakMap();
    drifts.set(cached, byLive);
  }
  let drift = byLive.get(live);
  if (drift === undefined) {
    const d = diffCatalogs(cached.tools, live);
    drift = hasDrift(d) ? d : null;
    byLive.set(live, drift);
  }
  return drift ?? undefined;
}

/** Hash of a tool list, once per list: unfiltered cases share the suite's catalog array. */
const toolsHashes = new WeakMap<ToolDef[], string>();

function toolsHash(tools: ToolDef[]): string {
  let h = toolsHashes.get(tools);
  if (h === undefined) {
    h = hashOf(tools);
    toolsHashes.set(tools, h);
  }
  return h;
}
