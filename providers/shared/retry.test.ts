import { describe, expect, it } from 'vitest';
import { ToolgaugeError } from '../../src/errors.js';
import { backoffMs, isRetryable, retryAfterMs, withRetry } from './retry.js';

describe('retryAfterMs', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs({ 'Retry-After': '1.5' })).toBe(1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30_000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('backoff', () => {
  const policy = { maxRetries: 5, baseMs: 100, maxMs: 1000 };
  it('grows exponentially with jitter, capped, and never undercuts Retry-After', () => {
    expect(backoffMs(0, { ...policy, random: () => 0 })).toBe(50);
    expect(backoffMs(2, { ...policy, random: () => 1 })).toBe(400);
    expect(backoffMs(10, { ...policy, random: () => 1 })).toBe(1000);
    expect(backoffMs(0, { ...policy, random: () => 0 }, 3000)).toBe(3000);
  });

  it('retries only transient faults', () => {
    const http = (status: number) => new ToolgaugeError('PROVIDER_HTTP', 'x', { status });
    expect(isRetryable(http(503))).toBe(true);
    expect(isRetryable(http(400))).toBe(false);
    expect(isRetryable(new ToolgaugeError('PROVIDER_RATE_LIMIT', 'x'))).toBe(true);
    expect(isRetryable(new ToolgaugeError('PROVIDER_AUTH', 'x'))).toBe(false);
    expect(isRetryable(new ToolgaugeError('ABORTED', 'x'))).toBe(false);
    expect(isRetryable(new Error('plain'))).toBe(false);
  });
});

describe('withRetry', () => {
  it('stops after maxRetries and rethrows the last error', async () => {
    let calls = 0;
    const failing = withRetry(
      async () => {
        calls++;
        throw new ToolgaugeError('PROVIDER_NETWORK', `attempt ${calls}`);
      },
      { maxRetries: 2, baseMs: 0, maxMs: 0 },
    );
    await expect(failing).rejects.toThrow('attempt 3');
    expect(calls).toBe(3);
  });

  it('gives up at once when the server asks for a wait beyond the cap', async () => {
    let calls = 0;
    const tooLong = withRetry(
      async () => {
        calls++;
        throw new ToolgaugeError('PROVIDER_RATE_LIMIT', 'slow down', { retryAfterMs: 3_600_000 });
      },
      { maxRetries: 3, baseMs: 0, maxMs: 0, retryAfterCapMs: 60_000 },
    );
    await expect(tooLong).rejects.toThrow('slow down');
    expect(calls).toBe(1);
  });
});
