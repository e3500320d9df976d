import pLimit from 'p-limit';
import { abortedError, sleep } from './retry.js';

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

const RETRY = Symbol('retry');

/**
 * A request first waits, cancellably, until the per-minute window has room, then takes a concurrency slot, and only
 * then counts as started. It never holds a slot while it sleeps on the window: a request that finds the window filled
 * in the meantime gives its slot back and waits again. A request cancelled while queued for a slot gives the slot
 * back at once without running.
 *
 * The window is hand-written (a sliding 60 s list of start times) rather than p-throttle: p-throttle's abort signal
 * cancels the whole throttle, not one call, and one case's timeout must not cancel its neighbours' requests.
 */
export function createLimiter(options: LimiterOptions): Limiter {
  const limit = pLimit(options.concurrency);
  const now = options.now ?? Date.now;
  const starts: number[] = [];
  const perWindow = options.rpm === undefined ? undefined : Math.max(1, Math.floor(options.rpm));
  const windowMs = 60_000;

  function prune(t: number): void {
    while (starts.length && (starts[0] ?? 0) <= t - windowMs) starts.shift();
  }

  /** Waits until a start fits in the window, without taking it. */
  async function waitForRoom(max: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const t = now();
      prune(t);
      if (starts.length < max) return;
      await sleep((starts[0] ?? t) + windowMs - t, signal);
    }
  }

  /** Takes a start in the window, or says the window filled while this request waited for its slot. */
  function takeStart(max: number): boolean {
    const t = now();
    prune(t);
    if (starts.length >= max) return false;
    starts.push(t);
    return true;
  }

  return {
    async run(fn, signal) {
      for (;;) {
        if (perWindow !== undefined) await waitForRoom(perWindow, signal);
        const queued = limit(async () => {
          if (signal?.aborted) throw abortedError();
          if (perWindow !== undefined && !takeStart(perWindow)) return RETRY;
          return { value: await fn() };
        });
        const outcome = await untilAborted(queued, signal);
        if (outcome !== RETRY) return outcome.value;
      }
    },
  };
}

/** `promise`, or an ABORTED rejection as soon as `signal` fires (the queued task then returns at once, unrun). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  promise.catch(() => {}); // a task cancelled while queued rejects later, to nobody
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
