import type { Finder } from '../found-call.js';

/**
 * Model families whose calls are XML-like markup with text argument values (converted by the tool's schema), in the
 * order they claim text. Each finder returns quickly when its markup is absent.
 */
export const MARKUP_FORMATS: readonly Finder[] = [];
