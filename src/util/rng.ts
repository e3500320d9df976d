import { createHash } from 'node:crypto';

/**
 * A small seeded PRNG (mulberry32). Simulated personas must be deterministic for (seed, case, repeat),
 * and Math.random is not seedable; this is the standard 32-bit generator, a few lines, no dependency.
 */
export function seededRandom(...keys: (string | number)[]): () => number {
  const digest = createHash('sha256').update(keys.join('\u0000')).digest();
  let state = digest.readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
