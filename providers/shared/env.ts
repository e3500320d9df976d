import { AsyncLocalStorage } from 'node:async_hooks';
import { ToolgaugeError } from '../../src/errors.js';
import { registerSecret, registerUrlCredentials } from '../../src/util/redact.js';

/** Set while the providers of a run that calls none of them are made (see {@link withoutKeys}). */
const keyless = new AsyncLocalStorage<true>();

/**
 * What {@link readKey} gives for a missing required key inside {@link withoutKeys}: a provider needs a key to be
 * made, but one that is never called never sends it (and this one opens no account if it ever were).
 */
export const NO_KEY = 'toolgauge-no-key-needed';

/**
 * Makes providers (`create`, e.g. resolveProviders) for a run that calls none of them — every answer comes from
 * cassettes — so a missing API key is no error there. Scoped to `create` (and what it awaits): a live run made
 * anywhere else still needs its key.
 */
export function withoutKeys<T>(create: () => T): T {
  return keyless.run(true, create);
}

/**
 * Reads an API key from the environment and registers it for redaction. A missing required key is PROVIDER_AUTH
 * naming the variable (never its value), except inside {@link withoutKeys}, where it is {@link NO_KEY}.
 */
export function readKey(
  env: Record<string, string | undefined>,
  variable: string,
  providerId: string,
  required: boolean,
): string | undefined {
  const value = env[variable]?.trim();
  if (!value) {
    if (!required) return undefined;
    if (keyless.getStore()) return NO_KEY;
    throw new ToolgaugeError(
      'PROVIDER_AUTH',
      `provider ${providerId}: no API key — set the environment variable ${variable}`,
      { provider: providerId, variable },
    );
  }
  registerSecret(value);
  return value;
}

/**
 * Reads a base URL from the environment (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, OLLAMA_HOST) and registers the
 * credentials it may carry (`https://user:pass@proxy/…`, `?api_key=…`) for redaction, as options' URLs are.
 */
export function readBaseUrl(env: Record<string, string | undefined>, variable: string): string | undefined {
  const value = env[variable]?.trim();
  if (!value) return undefined;
  registerUrlCredentials(value);
  return value;
}
