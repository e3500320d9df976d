import type { RendererEntry } from '../config/config-schema.js';
import type { Renderer } from '../contracts/renderer.js';
import { ToolgaugeError } from '../errors.js';
import type { Where } from './plugin-file.js';
import { resolveRenderer } from './renderer-registry.js';

/** One renderer strategy of the experiment: a renderer plus options, with the label reports use. */
export interface Strategy {
  label: string;
  name: string;
  options: Record<string, unknown>;
  renderer: Renderer;
}

export function labelFor(name: string, options: Record<string, unknown>): string {
  const keys = Object.keys(options).sort();
  if (keys.length === 0) return name;
  return `${name}(${keys.map((k) => `${k}=${typeof options[k] === 'string' ? options[k] : JSON.stringify(options[k])}`).join(',')})`;
}

/** The config's renderer entries as strategies; two with the same label are a config error. */
export async function resolveStrategies(entries: RendererEntry[], baseDir: string, where: Where): Promise<Strategy[]> {
  const out: Strategy[] = [];
  for (const [i, entry] of entries.entries()) {
    const { name, options = {}, label } = typeof entry === 'string' ? { name: entry } : entry;
    const renderer = await resolveRenderer(name, baseDir, () => where(i));
    out.push({ label: label ?? labelFor(name, options), name, options, renderer });
  }
  const labels = new Set<string>();
  for (const [i, s] of out.entries()) {
    if (labels.has(s.label))
      throw new ToolgaugeError('CONFIG_INVALID', `${where(i)}: duplicate renderer strategy '${s.label}'`);
    labels.add(s.label);
  }
  return out;
}
