import type { JSONSchema } from './json-schema.js';

/** One tool as an MCP server (or an inline suite declaration) publishes it. */
export interface ToolDef {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JSONSchema;
  /** Logical server name from the suite (`servers:` key), or `inline` for suite-declared tools. */
  server: string;
  annotations?: Record<string, unknown>;
}

/** Differences between the schema cache and the live server, when a renderer used the cache. */
export interface CatalogDrift {
  added: string[];
  removed: string[];
  changed: string[];
}

export interface Catalog {
  tools: ToolDef[];
  source: 'live' | 'cache' | 'inline';
  /** sha256 of the canonical JSON of `tools` (see src/util/canonical-json.ts). */
  hash: string;
  drift?: CatalogDrift;
}
