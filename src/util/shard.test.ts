import { describe, expect, it } from 'vitest';
import { inShard, parseShard, shardOf } from './shard.js';

describe('shards', () => {
  it('put every case in exactly one shard, the same one every time, spread across shards', () => {
    const ids = Array.from({ length: 300 }, (_, i) => `case-${i}`);
    const sizes = [0, 0, 0, 0];
    for (const id of ids) {
      const owners = [1, 2, 3, 4].filter((i) => inShard({ index: i, count: 4 }, 'excel', id));
      expect(owners).toEqual([shardOf('excel', id, 4)]);
      sizes[owners[0]! - 1]!++;
    }
    for (const n of sizes) expect(n).toBeGreaterThan(40);
    expect(shardOf('excel', 'case-7', 4)).toBe(shardOf('excel', 'case-7', 4));
    expect(shardOf('excel', 'anything', 1)).toBe(1);
  });

  it('parses i/n and rejects anything else with the fix', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', '1/0', '1-3', 'x']) expect(() => parseShard(bad)).toThrow(/expected i\/n/);
  });
});
