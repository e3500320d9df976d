import type { ModelRequest, ModelResponse, NativeCall, ProviderKind, Usage } from '../../src/contracts/model.js';
import type { Provider } from '../../src/contracts/provider.js';
import { ToolgaugeError } from '../../src/errors.js';
import { jsonText } from '../../src/util/json-text.js';
import { redactSecrets } from '../../src/util/redact.js';
import { classifySdkError, type ErrorFacts, providerError } from './map-error.js';
import type { ProviderOptions } from './options.js';
import { createLimiter } from './rate-limit.js';
import { abortedError, withRetry } from './retry.js';

/** What one SDK call produced, already in neutral terms (plus the API's own response for `raw`). */
export interface SdkResult {
  response: unknown;
  text: string;
  toolCalls: NativeCall[];
  finishReason: string;
  usage?: Usage;
}

/** One prepared exchange: the exact wire body, and how to send it (once; retries call `send` again). */
export interface PreparedCall {
  body: unknown;
  send(signal: AbortSignal): Promise<SdkResult>;
}

export interface SdkProviderSpec {
  id: string;
  kind: ProviderKind;
  options: ProviderOptions;
  prepare(request: ModelRequest): PreparedCall;
  classify?(error: unknown): ErrorFacts;
  close?(): Promise<void>;
}

/**
 * The behaviour all SDK-backed providers share: concurrency + rpm limits, our own retries with backoff honouring
 * Retry-After, a per-attempt timeout, cancellation, typed redacted errors and a redacted `raw`.
 */
export function createSdkProvider(spec: SdkProviderSpec): Provider {
  const { options } = spec;
  const limiter = createLimiter({ concurrency: options.concurrency, rpm: options.rpm });
  const classify = spec.classify ?? classifySdkError;

  async function attemptOnce(call: PreparedCall, outer: AbortSignal | undefined): Promise<ModelResponse> {
    if (outer?.aborted) throw abortedError();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, options.timeoutMs);
    const onOuterAbort = () => controller.abort(new Error('aborted'));
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    const started = performance.now();
    try {
      const result = await call.send(controller.signal);
      const latencyMs = Math.round(performance.now() - started);
      const response: ModelResponse = {
        text: result.text,
        toolCalls: result.toolCalls,
        finishReason: result.finishReason,
        latencyMs,
        raw: { request: call.body, response: result.response },
      };
      if (result.usage) response.usage = result.usage;
      return redactSecrets(response);
    } catch (error) {
      // Our timer or the caller's abort come first, whatever the SDK made of them: the openai and anthropic SDKs end
      // an aborted stream quietly, so the stream folders then report a reply that stopped short (a bad response).
      if (timedOut) {
        throw providerError(spec.id, { kind: 'timeout', message: `no complete reply within ${options.timeoutMs} ms` });
      }
      if (outer?.aborted) throw abortedError();
      if (error instanceof ToolgaugeError) throw error;
      throw providerError(spec.id, classify(error), error);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  return {
    id: spec.id,
    kind: spec.kind,
    simulated: false,
    async generate(request, signal) {
      const call = spec.prepare(request);
      return withRetry(
        () => limiter.run(() => attemptOnce(call, signal), signal),
        {
          maxRetries: options.maxRetries,
          baseMs: options.retryBaseMs,
          maxMs: options.retryMaxMs,
          retryAfterCapMs: Math.max(options.retryMaxMs, 300_000),
        },
        signal,
      );
    },
    ...(spec.close ? { close: spec.close } : {}),
  };
}

/** Parses tool-call arguments we must send back as an object (Anthropic `input`, Ollama `arguments`). */
export function argumentsObject(args: string | Record<string, unknown>): Record<string, unknown> {
  if (typeof args !== 'string') return args;
  try {
    const parsed: unknown = JSON.parse(args);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    // The model's own malformed arguments are history, not an infrastructure fault: send an empty object back.
    return {};
  }
}

/** Serialises arguments we must send back as a JSON string (OpenAI `function.arguments`). */
export function argumentsString(args: string | Record<string, unknown>): string {
  // (jsonText: arguments a model nested thousands deep do not overflow the stack)
  return typeof args === 'string' ? args : (jsonText(args) ?? '{}');
}

/** Token usage as the APIs report it → the neutral Usage (`cached` only when the API said). */
export function tokenUsage(input: number, output: number, cached: number | null | undefined): Usage {
  const usage: Usage = { input, output };
  if (typeof cached === 'number') usage.cached = cached;
  return usage;
}
