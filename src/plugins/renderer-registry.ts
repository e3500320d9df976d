import type { Renderer } from '../contracts/renderer.js';
import { ToolgaugeError } from '../errors.js';
import { isPluginPath } from '../util/plugin-path.js';
import { loadPlugin } from './plugin-file.js';

/** The built-in renderers (renderers/index.ts), loaded on first use. */
const builtins = async () => (await import('../../renderers/index.js')).renderers as Record<string, Renderer>;

/** A renderer by built-in name, or by path to a module exporting `renderer` (checked against the contract). */
export async function resolveRenderer(name: string, baseDir: string, where: () => string): Promise<Renderer> {
  const known = await builtins();
  if (Object.hasOwn(known, name)) return known[name] as Renderer;
  if (isPluginPath(name)) return loadPlugin<Renderer>('renderer', name, baseDir, where);
  throw new ToolgaugeError(
    'UNKNOWN_RENDERER',
    `${where()}: unknown renderer '${name}'; valid: ${Object.keys(known).join(', ')}, or a path to a module exporting \`renderer\``,
  );
}
