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

describe('createLimiter cancellation', () => {
  it('a request queued for a slot rejects as soon as it is cancelled and never runs', async () => {
    const limiter = createLimiter({ concurrency: 1 });
    let release: () => void = () => {};
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    let ran = false;
    const second = limiter.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: 'ABORTED' });
    release();
    await first;
    expect(await limiter.run(async () => 'next')).toBe('next');
    expect(ran).toBe(false);
  });

  it('a request waiting on the per-minute window holds no slot: a later one waiting too can be cancelled', async () => {
    let clock = 1_000_000;
    const limiter = createLimiter({ concurrency: 1, rpm: 1, now: () => clock });
    await limiter.run(async () => 'first');
    const a = new AbortController();
    const b = new AbortController();
    const second = limiter.run(async () => 'second', a.signal);
    const third = limiter.run(async () => 'third', b.signal);
    await new Promise((r) => setImmediate(r));
    b.abort();
    await expect(third).rejects.toMatchObject({ code: 'ABORTED' });
    clock += 61_000;
    a.abort();
    await expect(second).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
