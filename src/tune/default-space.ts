import type { Space } from './space.js';

/**
 * The space tune searches when given none: every built-in renderer that needs nothing of the suite (cached-schemas
 * needs a committed schema cache, so it is left to a space file), the options that change what the model reads most
 * (full-details' call protocol and its no-fences rule; tool search's results per search), and no distractors: the
 * catalog as the servers list it.
 */
export const DEFAULT_SPACE: Space = {
  renderers: [
    { name: 'names-only' },
    { name: 'full-details', grid: { protocol: ['xml-tags', 'json', 'python-call'] } },
    { name: 'full-details', options: { noFences: true } },
    { name: 'native-functions' },
    { name: 'hermes' },
    { name: 'cline-xml' },
    { name: 'claude-code' },
    { name: 'tool-search', grid: { k: [3, 5, 10] } },
  ],
};
