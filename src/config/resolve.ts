/**
 * Plugin resolution (renderers, providers, graders, reporters: built-in names and modules by path) lives in
 * src/plugins/; config only validates entries. These re-exports keep older import sites working.
 */
export {
  labelFor,
  type ProviderSlot,
  resolveGraders,
  resolveProviders,
  resolveStrategies,
  type Strategy,
} from '../plugins/index.js';
