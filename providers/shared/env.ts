import { ToolgaugeError } from '../../src/errors.js';
import { registerSecret, registerUrlCredentials } from './redact.js';

/**
 * Reads an API key from the environment and registers it for redaction. A missing required key is PROVIDER_AUTH
 * naming the variable (never its value).
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
