import { ToolgaugeError } from '../../src/errors.js';

/**
 * Our own retry loop (every SDK gets `maxRetries: 0`), so retries behave identically across SDKs and are testable.
 * Retried: 429, 408, 409, 5xx, network errors and timeouts. Never retried: auth, other 4xx, bad responses, aborts.
 */
export interface RetryPolicy {
  maxRetries: number;
  /** First backoff step; doubles every attempt. */
  baseMs: number;
  /** Cap for the computed backoff (a server's Retry-After is honoured even when longer, up to `retryAfterCapMs`). */
  maxMs: number;
  /** Longest Retry-After we are willing to wait; beyond it the error is thrown at once. */
  retryAfterCapMs?: number;
  random?: () => number;
}

/** Something with a `get(name)` like the fetch `Headers`, or a plain record. */
export type HeadersLike = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: HeadersLike | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** The delay a server asked for: `retry-after-ms`, or `Retry-After` in seconds or as an HTTP date. */
export function retryAfterMs(headers: HeadersLike | undefined, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = header(headers, 'retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Math.round(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ToolgaugeError)) return false;
  switch (error.code) {
    case 'PROVIDER_RATE_LIMIT':
    case 'PROVIDER_NETWORK':
    case 'PROVIDER_TIMEOUT':
      return true;
    case 'PROVIDER_HTTP': {
      const status = error.details?.status;
      return typeof status === 'number' && (status >= 500 || status === 408 || status === 409);
    }
    default:
      return false;
  }
}

/** Exponential backoff with jitter (50–100 % of the step), never shorter than the server's Retry-After. */
export function backoffMs(retry: number, policy: RetryPolicy, serverDelayMs?: number): number {
  const random = policy.random ?? Math.random;
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** retry);
  const jittered = Math.round(step * (0.5 + random() * 0.5));
  return serverDelayMs === undefined ? jittered : Math.max(serverDelayMs, Math.min(jittered, serverDelayMs + 1000));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortedError(): ToolgaugeError {
  return new ToolgaugeError('ABORTED', 'provider request aborted');
}

/** Runs `attempt(n)` (n = 0, 1, …) until it succeeds, throws a non-retryable error, or retries are used up. */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  onRetry?: (info: { retry: number; delayMs: number; error: ToolgaugeError }) => void,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!isRetryable(error) || n >= policy.maxRetries || signal?.aborted) throw error;
      const tgError = error as ToolgaugeError;
      const server = tgError.details?.retryAfterMs;
      const serverDelay = typeof server === 'number' ? server : undefined;
      if (serverDelay !== undefined && serverDelay > (policy.retryAfterCapMs ?? 300_000)) throw error;
      const delayMs = backoffMs(n, policy, serverDelay);
      onRetry?.({ retry: n + 1, delayMs, error: tgError });
      await sleep(delayMs, signal);
    }
  }
}
