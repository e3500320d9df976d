import { TokenCache } from './token-cache.js';
import { countTokens } from './tokens.js';

/**
 * o200k token counts for one run, on the main thread, through the disk cache of counts seen in earlier runs
 * (token-cache.ts): a run whose prompts were all counted before never loads the tokenizer's tables (~0.3 s of CPU,
 * loaded on the first count that misses). `cache` null: no disk cache; absent: the configured one, opened on first use.
 */
export class TokenCounter {
  private cache: TokenCache | null | undefined;

  constructor(cache?: TokenCache | null) {
    this.cache = cache;
  }

  count(text: string): number {
    if (text.length === 0) return 0;
    // null (no disk cache) is an answer too: looked up once, not on every count
    if (this.cache === undefined) this.cache = TokenCache.open();
    if (!this.cache) return countTokens(text);
    const key = TokenCache.keyOf(text);
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const n = countTokens(text);
    this.cache.set(key, n);
    return n;
  }

  /** Writes the counts learnt in this run to the disk cache (see TokenCache). */
  save(): void {
    this.cache?.save();
  }
}
