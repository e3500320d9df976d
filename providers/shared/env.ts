import { ToolgaugeError } from '../../src/errors.js';
import { isSecretHeader, registerSecret } from './redact.js';

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

/** Values of credential headers (Authorization, x-api-key, …) given in the config are secrets too. */
export function registerHeaderSecrets(headers: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!isSecretHeader(name)) continue;
    registerSecret(value);
    const bearer = /^bearer\s+(.+)$/i.exec(value);
    if (bearer?.[1]) registerSecret(bearer[1]);
  }
}
