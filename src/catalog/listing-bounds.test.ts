import { describe, expect, it } from 'vitest';
import { listingBounds, MAX_LIST_PAGES, MAX_LISTED_TOOLS } from './listing-bounds.js';

describe('listingBounds', () => {
  it('stops a listing past the pages or the tools it reads, or at a cursor sent before', () => {
    const pages = listingBounds('s');
    for (let i = 1; i < MAX_LIST_PAGES; i++) pages.next(String(i), i);
    expect(() => pages.next('last', MAX_LIST_PAGES)).toThrow(`went on past ${MAX_LIST_PAGES} pages`);

    const tools = listingBounds('s');
    tools.next('a', MAX_LISTED_TOOLS);
    expect(() => tools.next(undefined, MAX_LISTED_TOOLS + 1)).toThrow(`listed more than ${MAX_LISTED_TOOLS} tools`);

    const again = listingBounds('s');
    again.next('a', 1);
    again.next('b', 2);
    expect(() => again.next('a', 3)).toThrow(
      expect.objectContaining({
        code: 'SERVER_BAD_RESPONSE',
        message: expect.stringContaining('a cursor it had sent before (after 3 pages)'),
      }),
    );
    // a listing that ends is never stopped
    const ends = listingBounds('s');
    ends.next('a', 10);
    expect(() => ends.next(undefined, 20)).not.toThrow();
  });
});
