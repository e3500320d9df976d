import { describe, expect, it } from 'vitest';
import { createLimiter } from './rate-limit.js';

describe('createLimiter', () => {
  it('never runs more than `concurrency` tasks at once', async () => {
    const limiter = createLimiter({ concurrency: 2 });
    let active = 0;
    let peak = 0;
    const task = () =>
      limiter.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setImmediate(r));
        active--;
      });
    await Promise.all(Array.from({ length: 6 }, task));
    expect(peak).toBe(2);
  });

  it('holds a request past the per-minute budget until the window frees (cancellable)', async () => {
    let clock = 1_000_000;
    const limiter = createLimiter({ concurrency: 5, rpm: 1, now: () => clock });
    expect(await limiter.run(async () => 'first')).toBe('first');
    const controller = new AbortController();
    let started = false;
    const second = limiter.run(async () => {
      started = true;
    }, controller.signal);
    await new Promise((r) => setImmediate(r));
    expect(started).toBe(false);
    clock += 61_000; // the window has passed, but the limiter is asleep: cancel instead of waiting a minute
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: 'ABORTED' });
    expect(started).toBe(false);
  });
});
