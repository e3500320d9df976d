import type { Finder } from '../found-call.js';

/**
 * Model families whose calls are framed by special tokens and carry JSON (or python-call) arguments, in the order
 * they claim text. Each finder returns quickly when its tokens are absent.
 */
export const TOKEN_FORMATS: readonly Finder[] = [];
