import pLimit from 'p-limit';
import { sleep } from './retry.js';

/** Caps one provider's in-flight requests (p-limit) and request starts per minute. */
export interface Limiter {
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export interface LimiterOptions {
  concurrency: number;
  /** Requests per minute; absent = unlimited. */
  rpm?: number;
  now?: () => number;
}

export function createLimiter(options: LimiterOptions): Limiter {
  const limit = pLimit(options.concurrency);
  const now = options.now ?? Date.now;
  // A sliding 60 s window of request start times. Hand-written (a few lines) because p-limit has no time window
  // and no rate-limiting package is installed.
  const starts: number[] = [];
  const rpm = options.rpm;
  const windowMs = 60_000;

  async function acquireRate(signal?: AbortSignal): Promise<void> {
    if (rpm === undefined) return;
    const perWindow = Math.max(1, Math.floor(rpm));
    for (;;) {
      const t = now();
      while (starts.length && (starts[0] ?? 0) <= t - windowMs) starts.shift();
      if (starts.length < perWindow) {
        starts.push(t);
        return;
      }
      await sleep((starts[0] ?? t) + windowMs - t, signal);
    }
  }

  return {
    run: (fn, signal) =>
      limit(async () => {
        await acquireRate(signal);
        return fn();
      }),
  };
}
