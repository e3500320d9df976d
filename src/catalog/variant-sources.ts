import { existsSync, readdirSync } from 'node:fs';
import { basename, extname, isAbsolute, join, resolve } from 'node:path';
import { bundledSuiteNames, resolveSuitePath } from '../config/load-config.js';
import { BUILTIN_SERVER_NAMES, loadSuite } from '../config/load-suite.js';
import { loadYamlFile } from '../config/load-yaml.js';
import { firstCase } from '../config/suite-cases.js';
import type { ToolDef } from '../contracts/tool.js';
import { ToolgaugeError } from '../errors.js';
import { type DescriptionOverrides, DescriptionOverridesSchema } from '../presentation/tool-transforms.js';
import { displayPath } from '../util/display-path.js';
import { packageRoot } from '../util/package-root.js';
import { ServerPool } from './server-pool.js';
import { loadToolsFile } from './tools-file.js';

/** The folder of the bundled distractor catalogs (tools files named by their file name). */
export function bundledCatalogDir(): string {
  return join(packageRoot(), 'suites', 'catalogs');
}

/** Names of the bundled distractor catalogs (suites/catalogs/*.json). */
export function bundledCatalogNames(): string[] {
  const dir = bundledCatalogDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** What one `distractors.from` entry names. */
type Source =
  | { kind: 'server'; name: string }
  | { kind: 'catalog'; file: string; name: string }
  | { kind: 'suite'; file: string }
  | { kind: 'tools-file'; file: string; name: string };

function sourceOf(spec: string, baseDir: string, where: string): Source {
  const ext = extname(spec).toLowerCase();
  if (ext === '.json') {
    const file = isAbsolute(spec) ? spec : resolve(baseDir, spec);
    return { kind: 'tools-file', file, name: basename(spec, extname(spec)) };
  }
  if (ext === '.yaml' || ext === '.yml' || spec.includes('/') || spec.includes('\\')) {
    return { kind: 'suite', file: resolveSuitePath(spec, baseDir) };
  }
  if (BUILTIN_SERVER_NAMES.includes(spec)) return { kind: 'server', name: spec };
  if (bundledCatalogNames().includes(spec)) {
    return { kind: 'catalog', file: join(bundledCatalogDir(), `${spec}.json`), name: spec };
  }
  const suite = resolveSuitePath(spec, baseDir);
  if (existsSync(suite)) return { kind: 'suite', file: suite };
  throw new ToolgaugeError(
    'CONFIG_INVALID',
    `${where}: distractor source '${spec}' is none of: a bundled server (${BUILTIN_SERVER_NAMES.join(', ')}), a bundled catalog (${bundledCatalogNames().join(', ')}), a bundled suite (${bundledSuiteNames().join(', ')}), a suite file (.yaml) or a tools file (.json)`,
  );
}

/** The tools one source offers, each with the server a renderer names as its source. */
async function toolsOf(source: Source, where: string): Promise<ToolDef[]> {
  switch (source.kind) {
    case 'catalog':
    case 'tools-file': {
      if (!existsSync(source.file)) {
        throw new ToolgaugeError(
          'CONFIG_INVALID',
          `${where}: distractor tools file ${displayPath(source.file)} not found (paths are relative to the config file)`,
        );
      }
      return loadToolsFile(source.file, `${where}:`).map((t) => ({
        name: t.name,
        ...(t.description !== undefined ? { description: t.description } : {}),
        inputSchema: t.inputSchema ?? { type: 'object', properties: {} },
        server: source.name,
      }));
    }
    case 'server': {
      const { connectServer } = await import('./mcp-connection.js');
      const conn = await connectServer(source.name, { builtin: source.name }, packageRoot());
      try {
        return await conn.listTools();
      } finally {
        await conn.close();
      }
    }
    case 'suite': {
      if (!existsSync(source.file)) {
        throw new ToolgaugeError('CONFIG_INVALID', `${where}: distractor suite ${displayPath(source.file)} not found`);
      }
      const loaded = loadSuite(source.file);
      const first = firstCase(loaded.cases);
      if (!first) return (loaded.suite.tools ?? []).map((t) => ({ ...t, server: 'inline' }));
      const pool = new ServerPool();
      try {
        const session = await pool.openCase(loaded, first);
        await session.release();
        return session.catalog.tools;
      } finally {
        await pool.closeAll();
      }
    }
  }
}

/**
 * The distractor candidates of `from`, every source's tools in the order listed; a name two sources share is taken
 * from the first. Listing a server or a suite starts it (bundled servers in-process).
 */
export async function loadDistractorPool(from: readonly string[], baseDir: string, where: string): Promise<ToolDef[]> {
  const out: ToolDef[] = [];
  const names = new Set<string>();
  for (const spec of from) {
    for (const t of await toolsOf(sourceOf(spec, baseDir, where), where)) {
      if (names.has(t.name)) continue;
      names.add(t.name);
      out.push(t);
    }
  }
  return out;
}

/** A descriptions file (YAML or JSON), validated: a bad entry is one line naming the file, line and column. */
export function loadDescriptionOverrides(spec: string, baseDir: string, where: string): DescriptionOverrides {
  const file = isAbsolute(spec) ? spec : resolve(baseDir, spec);
  if (!existsSync(file)) {
    throw new ToolgaugeError(
      'CONFIG_INVALID',
      `${where}: descriptions file ${displayPath(file)} not found (paths are relative to the config file)`,
    );
  }
  return loadYamlFile(file, DescriptionOverridesSchema, 'CONFIG_INVALID').data;
}
