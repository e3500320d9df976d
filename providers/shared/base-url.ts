import { ToolgaugeError } from '../../src/errors.js';
import { registerSecret } from '../../src/util/redact.js';

/** Where an SDK client sends its requests, from a base URL that may carry credentials. */
export interface Endpoint {
  /** The base URL without its userinfo, query and fragment: what the SDK client is given. */
  baseURL: string;
  /** The base URL's query, sent on every request (after the request's own path), in order. */
  query: [string, string][];
  /** The headers of every request: the config's `headers`, and `Authorization: Basic …` for the URL's userinfo. */
  headers: Record<string, string> | undefined;
}

/** How a provider authenticates besides the base URL: where its base URL came from, and where its key goes. */
export interface EndpointAuth {
  providerId: string;
  /** Where the base URL was written, named in an error: `option baseURL`, or the environment variable. */
  source: string;
  /** The config's `headers` option. */
  headers: Record<string, string> | undefined;
  /**
   * The variable whose API key the provider sends as `Authorization: Bearer …`, if any: openai: and anthropic: always
   * (their SDKs send the key so), openai-compatible: and ollama: with apiKeyEnv.
   */
  bearerKeyFrom: string | undefined;
}

/**
 * Splits a base URL into what fetch can send: `fetch()` refuses a URL with userinfo ("Request cannot be constructed
 * from a URL that includes credentials"), and an SDK that appends its path to the whole string puts the path inside
 * the query (`/v1?key=X/chat/completions`). The userinfo becomes `Authorization: Basic base64(user:password)` (RFC
 * 7617: the user alone, as in `https://TOKEN@host`, is `TOKEN:`), and the query is kept for every request.
 *
 * The Authorization header holds one credential. The config's own `headers.Authorization` and an API key sent as a
 * bearer token both take it, so a userinfo besides either is refused (CONFIG_INVALID) rather than silently dropped.
 * A base URL that is not a full URL (OLLAMA_HOST=127.0.0.1:11434) is left as it is.
 */
export function endpointOf(rawBaseURL: string, auth: EndpointAuth): Endpoint {
  const unchanged = { baseURL: rawBaseURL, query: [], headers: auth.headers };
  if (!rawBaseURL.includes('://')) return unchanged;
  let url: URL;
  try {
    url = new URL(rawBaseURL);
  } catch {
    return unchanged;
  }
  const query = [...url.searchParams];
  const userinfo = url.username || url.password;
  const basic = userinfo ? basicAuthorization(url) : undefined;
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  const headers = basic ? withBasic(basic, auth) : auth.headers;
  // `new URL` adds a slash to a bare origin; the providers join paths as they did with the text as written.
  const baseURL = rawBaseURL.endsWith('/') || url.pathname !== '/' ? url.href : url.href.slice(0, -1);
  return { baseURL, query, headers };
}

function basicAuthorization(url: URL): string {
  const token = Buffer.from(`${decode(url.username)}:${decode(url.password)}`).toString('base64');
  // The password is registered with the URL; the header's token must not reach a log either (a server may echo it).
  registerSecret(token);
  return `Basic ${token}`;
}

function withBasic(basic: string, auth: EndpointAuth): Record<string, string> {
  const taken = Object.keys(auth.headers ?? {}).find((k) => k.toLowerCase() === 'authorization');
  if (taken !== undefined || auth.bearerKeyFrom !== undefined) {
    const by = taken !== undefined ? `option headers.${taken}` : `the API key from ${auth.bearerKeyFrom}`;
    throw new ToolgaugeError(
      'CONFIG_INVALID',
      `provider ${auth.providerId}: ${auth.source} carries a user:password@ credential, sent as the Authorization header, which ${by} takes too; keep one of them`,
      { provider: auth.providerId },
    );
  }
  return { ...auth.headers, Authorization: basic };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The request URL with the base URL's query added after its own (an SDK's query parameters come first). */
export function withQuery(requestUrl: string, query: readonly [string, string][]): string {
  if (query.length === 0) return requestUrl;
  const url = new URL(requestUrl);
  for (const [k, v] of query) url.searchParams.append(k, v);
  return url.href;
}
