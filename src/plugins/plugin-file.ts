import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage, ToolgaugeError } from '../errors.js';
import { displayPath } from '../util/display-path.js';
import { type PluginKind, shapeProblem } from './plugin-shapes.js';

/** `where` names the origin of an entry for error messages: `toolgauge.config.yaml:4:5: renderers[1]`, `--grader`. */
export type Where = (index: number) => string;

const TYPESCRIPT = /\.(c|m)?tsx?$/;

export function pluginFile(spec: string, baseDir: string): string {
  return isAbsolute(spec) ? spec : resolve(baseDir, spec);
}

/**
 * Imports a plugin module. TypeScript files go through tsx's programmatic API (`tsImport`, scoped to this import:
 * nothing is registered for the rest of the process), so a `.ts` plugin needs no build step and no loader flag.
 */
async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  if (!TYPESCRIPT.test(file)) return (await import(url)) as Record<string, unknown>;
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
}

/**
 * The `exportName` export (or the default export) of the plugin module at `spec`, relative to `baseDir`. A missing
 * file, a module that fails to load and a module without the export are usage errors (exit 2) naming the entry and
 * the file. The value is returned unchecked: see checkPluginShape.
 */
export async function importPluginExport(
  spec: string,
  baseDir: string,
  exportName: string,
  where: () => string,
): Promise<{ file: string; value: unknown }> {
  const file = pluginFile(spec, baseDir);
  if (!existsSync(file)) {
    throw new ToolgaugeError('USAGE', `${where()}: plugin file '${spec}' not found (resolved to ${displayPath(file)})`);
  }
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(file);
  } catch (e) {
    const first = errorMessage(e).split('\n')[0];
    throw new ToolgaugeError('PLUGIN_INVALID', `${where()}: ${displayPath(file)} failed to load: ${first}`, {
      file,
    });
  }
  const value = mod[exportName] ?? mod.default;
  if (value === undefined) {
    const names = Object.keys(mod);
    throw new ToolgaugeError(
      'PLUGIN_INVALID',
      `${where()}: ${displayPath(file)} has no export \`${exportName}\` (nor a default export)${names.length ? `; it exports ${names.join(', ')}` : ''}`,
      { file, missing: exportName },
    );
  }
  return { file, value };
}

/** Throws a usage error (exit 2) naming the entry, the file and the missing or mistyped member when `value` does not fit. */
export function checkPluginShape<T>(
  kind: PluginKind,
  exportName: string,
  value: unknown,
  file: string,
  where: () => string,
): T {
  const problem = shapeProblem(kind, exportName, value);
  if (problem) {
    throw new ToolgaugeError('PLUGIN_INVALID', `${where()}: ${displayPath(file)}: ${problem}`, { file, kind });
  }
  return value as T;
}

/** Imports a plugin whose export is the plugin itself (renderers, graders) and checks its shape. */
export async function loadPlugin<T>(kind: PluginKind, spec: string, baseDir: string, where: () => string): Promise<T> {
  const { file, value } = await importPluginExport(spec, baseDir, kind, where);
  return checkPluginShape<T>(kind, kind, value, file, where);
}

/**
 * Imports a plugin whose export is the plugin or a function that makes one from the entry's options (providers,
 * reporters), makes it and checks its shape.
 */
export async function loadPluginWithOptions<T>(
  kind: PluginKind,
  spec: string,
  baseDir: string,
  options: Record<string, unknown>,
  where: () => string,
): Promise<T> {
  const { file, value } = await importPluginExport(spec, baseDir, kind, where);
  if (typeof value !== 'function') return checkPluginShape<T>(kind, kind, value, file, where);
  let made: unknown;
  try {
    made = await (value as (o: Record<string, unknown>) => unknown)(options);
  } catch (e) {
    if (e instanceof ToolgaugeError) throw new ToolgaugeError(e.code, `${where()}: ${e.message}`, e.details);
    throw new ToolgaugeError(
      'PLUGIN_INVALID',
      `${where()}: ${displayPath(file)}: \`${kind}(options)\` threw: ${errorMessage(e)}`,
      { file },
    );
  }
  return checkPluginShape<T>(kind, `${kind}(options)`, made, file, where);
}
