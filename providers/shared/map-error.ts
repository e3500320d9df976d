import { type ErrorCode, ToolgaugeError } from '../../src/errors.js';
import { redactText } from '../../src/util/redact.js';
import { type HeadersLike, retryAfterMs } from './retry.js';

/** What we learned from an SDK's error, in SDK-independent terms. */
export interface ErrorFacts {
  kind: 'http' | 'network' | 'timeout' | 'aborted' | 'bad-response';
  status?: number;
  headers?: HeadersLike;
  message: string;
}

function codeFor(facts: ErrorFacts): ErrorCode {
  switch (facts.kind) {
    case 'http':
      if (facts.status === 401 || facts.status === 403) return 'PROVIDER_AUTH';
      if (facts.status === 429) return 'PROVIDER_RATE_LIMIT';
      return 'PROVIDER_HTTP';
    case 'network':
      return 'PROVIDER_NETWORK';
    case 'timeout':
      return 'PROVIDER_TIMEOUT';
    case 'aborted':
      return 'ABORTED';
    case 'bad-response':
      return 'PROVIDER_BAD_RESPONSE';
  }
}

/** A typed, redacted ToolgaugeError: `details` carries provider, status and retryAfterMs when known. */
export function providerError(providerId: string, facts: ErrorFacts, cause?: unknown): ToolgaugeError {
  const code = codeFor(facts);
  const message = redactText(facts.message).slice(0, 2000);
  const prefix = facts.status === undefined ? '' : `HTTP ${facts.status}: `;
  const details: Record<string, unknown> = { provider: providerId };
  if (facts.status !== undefined) details.status = facts.status;
  const wait = retryAfterMs(facts.headers);
  if (wait !== undefined) details.retryAfterMs = wait;
  // The cause is kept only as a redacted message: SDK errors can hold request options and headers.
  const safeCause = cause instanceof Error ? new Error(redactText(cause.message)) : undefined;
  return new ToolgaugeError(
    code,
    `provider ${providerId}: ${prefix}${message}`,
    details,
    safeCause ? { cause: safeCause } : undefined,
  );
}

const BLOCKED_PORT =
  "Node's fetch refuses this port (the fetch standard blocks it); serve the model on another port, or set the provider option transport: node-http";

/** An error's own words: an AggregateError (every address of a host refused) has none, its first error has them. */
function ownMessage(error: Error): string {
  if (error.message) return error.message;
  const first =
    error instanceof AggregateError ? (error.errors as unknown[]).find((e) => e instanceof Error) : undefined;
  return first ? ownMessage(first) : ((error as NodeJS.ErrnoException).code ?? error.name);
}

/**
 * The error's message with its causes' (`Connection error. (fetch failed: connect ECONNREFUSED 127.0.0.1:8000)`): the
 * SDKs wrap fetch's TypeError, which wraps the socket's error, and only the innermost says what went wrong.
 */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const causes: string[] = [];
  let cause = error.cause;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++) {
    const own = ownMessage(cause);
    // undici's words for a port on the fetch standard's blocked list (6000, 6665-6669, 10080…): say what to do
    const text = own === 'bad port' ? `bad port: ${BLOCKED_PORT}` : own;
    if (!causes.includes(text)) causes.push(text);
    cause = cause.cause;
  }
  return causes.length > 0 ? `${error.message} (${causes.join(': ')})` : error.message;
}

/**
 * Classifies errors of the openai and @anthropic-ai/sdk clients (same class layout: APIError with `status` and
 * `headers`, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError), ollama's ResponseError
 * (`status_code`) and undici/fetch errors. Anything else is a response we could not understand.
 */
export function classifySdkError(error: unknown): ErrorFacts {
  const e = error as {
    name?: string;
    status?: unknown;
    status_code?: unknown;
    headers?: HeadersLike;
    error?: unknown;
  } | null;
  const message = messageOf(error);
  // openai's error classes leave `name` as 'Error'; the constructor name is the reliable tag in both SDKs.
  const ctor = (error as { constructor?: { name?: string } } | null)?.constructor?.name;
  const name = e?.name && e.name !== 'Error' ? e.name : (ctor ?? '');
  if (typeof e?.status === 'number') return { kind: 'http', status: e.status, headers: e.headers, message };
  if (name === 'ResponseError' && typeof e?.status_code === 'number') {
    return { kind: 'http', status: e.status_code, message };
  }
  if (name === 'APIConnectionTimeoutError' || name === 'TimeoutError') return { kind: 'timeout', message };
  if (name === 'APIUserAbortError' || name === 'AbortError') return { kind: 'aborted', message };
  if (name === 'APIConnectionError') return { kind: 'network', message };
  if (error instanceof TypeError && /fetch failed|terminated|socket|network|ECONN|other side closed/i.test(message)) {
    return { kind: 'network', message };
  }
  if (/ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|terminated|other side closed/i.test(message)) {
    return { kind: 'network', message };
  }
  return { kind: 'bad-response', message };
}
