import { ToolgaugeError } from '../errors.js';
import { sha256 } from './canonical-json.js';

/** Shard `index` of `count` (1-based), as `--shard 2/3` writes it. */
export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    throw new ToolgaugeError('USAGE', `--shard ${text}: expected i/n with 1 ≤ i ≤ n, e.g. --shard 2/3`);
  }
  return { index, count };
}

/** Which shard (1..count) a case belongs to: every cell and repeat of a case stays together for paired comparisons. */
export function shardOf(suite: string, caseId: string, count: number): number {
  const h = sha256(`${suite}/${caseId}`);
  // The first 48 bits as an integer: uniform enough, and exact in a double.
  return (Number.parseInt(h.slice(0, 12), 16) % count) + 1;
}

export function inShard(shard: Shard, suite: string, caseId: string): boolean {
  return shardOf(suite, caseId, shard.count) === shard.index;
}
