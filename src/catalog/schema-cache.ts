import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogDrift, ToolDef } from '../contracts/tool.js';
import { ToolgaugeError } from '../errors.js';
import { canonicalJson, hashOf } from '../util/canonical-json.js';
import { makeFolder } from '../util/output-folder.js';
import { joinSegment } from '../util/path-segment.js';

export const SCHEMA_CACHE_FORMAT = 'toolgauge.schemas/1';
export const SCHEMA_CACHE_DIR = 'schemas';

/** A committed snapshot of a suite's `tools/list`. No timestamps: the file changes only when tools do. */
export interface SchemaCacheFile {
  format: typeof SCHEMA_CACHE_FORMAT;
  suite: string;
  hash: string;
  tools: ToolDef[];
}

/**
 * `schemas/<suite>.json` beside the config. The suite's name was checked when the suite loaded (one safe file name);
 * joinSegment checks it again, so no name can make `schemas refresh` write outside the schema folder.
 */
export function schemaCachePath(baseDir: string, suite: string): string {
  return joinSegment(join(baseDir, SCHEMA_CACHE_DIR), suite, 'schema cache of suite', '.json');
}

export function writeSchemaCache(baseDir: string, suite: string, tools: ToolDef[]): string {
  const file = schemaCachePath(baseDir, suite);
  makeFolder(join(baseDir, SCHEMA_CACHE_DIR));
  const body: SchemaCacheFile = { format: SCHEMA_CACHE_FORMAT, suite, hash: hashOf(tools), tools };
  writeFileSync(file, `${JSON.stringify(JSON.parse(canonicalJson(body)), null, 2)}\n`);
  return file;
}

export function readSchemaCache(baseDir: string, suite: string): Catalog {
  const file = schemaCachePath(baseDir, suite);
  if (!existsSync(file)) {
    throw new ToolgaugeError(
      'USAGE',
      `${file}: no schema cache for suite '${suite}'; run \`toolgauge schemas refresh\` and commit the file`,
    );
  }
  const body = JSON.parse(readFileSync(file, 'utf8')) as SchemaCacheFile;
  if (body.format !== SCHEMA_CACHE_FORMAT || !Array.isArray(body.tools)) {
    throw new ToolgaugeError('USAGE', `${file}: not a toolgauge schema cache (format ${String(body.format)})`);
  }
  return { tools: body.tools, source: 'cache', hash: hashOf(body.tools) };
}

/** Tools added to, removed from, or changed on the live server since the snapshot. */
export function diffCatalogs(cached: ToolDef[], live: ToolDef[]): CatalogDrift {
  const key = (t: ToolDef) => `${t.server}/${t.name}`;
  const before = new Map(cached.map((t) => [key(t), hashOf(t)]));
  const after = new Map(live.map((t) => [key(t), hashOf(t)]));
  return {
    added: [...after.keys()].filter((k) => !before.has(k)).sort(),
    removed: [...before.keys()].filter((k) => !after.has(k)).sort(),
    changed: [...after.entries()]
      .filter(([k, h]) => before.has(k) && before.get(k) !== h)
      .map(([k]) => k)
      .sort(),
  };
}

export function hasDrift(d: CatalogDrift): boolean {
  return d.added.length + d.removed.length + d.changed.length > 0;
}
