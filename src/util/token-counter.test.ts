import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenCache } from './token-cache.js';
import { TokenCounter } from './token-counter.js';
import { countTokens } from './tokens.js';

afterEach(() => vi.restoreAllMocks());

describe('TokenCounter', () => {
  it('looks the disk cache up once, also when there is none (TOOLGAUGE_CACHE_DIR=off)', () => {
    const open = vi.spyOn(TokenCache, 'open').mockReturnValue(null);
    const counter = new TokenCounter();
    expect(counter.count('hello world')).toBe(countTokens('hello world'));
    expect(counter.count('What is the weather in Paris?')).toBe(countTokens('What is the weather in Paris?'));
    expect(open).toHaveBeenCalledTimes(1);
  });
});
