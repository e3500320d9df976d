import { parentPort } from 'node:worker_threads';
import { countTokens } from './tokens.js';

/** A batch of texts to count, and its answer, between the run and its token worker (token-counter.ts). */
export interface TokenBatch {
  id: number;
  texts: string[];
}
export interface TokenCounts {
  id: number;
  counts?: number[];
  error?: string;
}

// Loading the o200k tables is the slow part (~0.3 s of CPU): done at once, while the main thread is still loading
// the config and starting servers, so the first batch usually finds them ready.
countTokens('warm up');
parentPort?.on('message', ({ id, texts }: TokenBatch) => {
  let reply: TokenCounts;
  try {
    reply = { id, counts: texts.map(countTokens) };
  } catch (e) {
    reply = { id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(reply);
});
