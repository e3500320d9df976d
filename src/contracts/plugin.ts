import type { Grader } from './grade.js';
import type { Provider } from './provider.js';
import type { Renderer } from './renderer.js';
import type { ReporterExport } from './reporter.js';

/**
 * What a plugin module named by path in the config exports, by kind: `export const renderer`, `grader`, `provider`
 * or `reporter` (or a default export). Provider and reporter modules may export a function of the entry's
 * `options` that makes the plugin. Each export is checked against its contract when the run starts.
 */
export interface PluginExports {
  renderer: Renderer;
  grader: Grader;
  provider: Provider | ((options: Record<string, unknown>) => Provider);
  reporter: ReporterExport;
}
