/**
 * Plugin resolution: one lazy typed registry per kind (renderers, providers, graders; the reporters' is
 * src/report/reporter-registry.ts, beside the built-in writers it loads). A config entry
 * names a built-in, loaded on first use, or a module by path (.js, .mjs, or TypeScript through tsx), whose export is
 * checked against its contract in src/contracts/ before anything runs.
 */

export { isPluginPath } from '../util/plugin-path.js';
export { resolveGrader, resolveGraders } from './grader-registry.js';
export type { Where } from './plugin-file.js';
export { type PluginKind, pluginShapes } from './plugin-shapes.js';
export { type ProviderSlot, resolveProvider, resolveProviders } from './provider-registry.js';
export { resolveRenderer } from './renderer-registry.js';
export { labelFor, resolveStrategies, type Strategy } from './strategies.js';
