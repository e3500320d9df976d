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
  /**
   * Added by a catalog variant (`distractors`): a real tool from another server, suite or tools file that no case
   * expects. A call to it is answered as unavailable and graded as a wrong tool. Renderers show it like any tool.
   */
  distractor?: boolean;
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
  /**
   * The tools are in the order to present them (a catalog variant's `order`). Absent: renderers sort them by server
   * and name, so a prompt is byte-stable whatever order a server lists its tools in.
   */
  ordered?: boolean;
}
