import { type ProviderOptions, providerOptionsSchema } from '../../src/config/provider-options-schema.js';
import { ToolgaugeError } from '../../src/errors.js';
import { REDACTED, registerCredentials } from '../../src/util/redact.js';

export {
  type ProviderOptions,
  providerOptionsSchema,
  type ToolChoice,
  toolChoiceSchema,
} from '../../src/config/provider-options-schema.js';

/**
 * Validates a provider's options; unknown keys and bad values are CONFIG_INVALID naming the provider and key (never
 * a value). Every credential the options carry (headers, URLs, key-like options) is registered for redaction first,
 * valid or not, before any of it can be sent, quoted back or written.
 */
export function parseProviderOptions(providerId: string, options: Record<string, unknown>): ProviderOptions {
  registerCredentials(options);
  rejectRedacted(providerId, options ?? {}, '');
  const parsed = providerOptionsSchema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : '(options)';
    if (issue.code === 'unrecognized_keys') {
      const valid = Object.keys(providerOptionsSchema.shape).join(', ');
      return `unknown option(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}; valid options: ${valid}`;
    }
    return `${where}: ${issue.message}`;
  });
  throw new ToolgaugeError('CONFIG_INVALID', `provider ${providerId}: ${problems.join('; ')}`, {
    provider: providerId,
    issues: problems,
  });
}

/**
 * A run log keeps its config redacted: options taken from one (a resumed or replayed run) whose credential could not
 * be found again would send the marker itself as a key. Refused, naming where, instead of failing as a bad key.
 */
function rejectRedacted(providerId: string, value: unknown, where: string): void {
  if (typeof value === 'string' && value.includes(REDACTED)) {
    throw new ToolgaugeError(
      'CONFIG_INVALID',
      `provider ${providerId}: option ${where} holds a redacted credential (run logs keep none); run from the config file that has it`,
      { provider: providerId, option: where },
    );
  }
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) rejectRedacted(providerId, v, where ? `${where}.${k}` : k);
}

/** For providers without an OpenAI API choice: `api: 'responses'` is a config mistake, not something to ignore. */
export function rejectResponsesApi(providerId: string, options: ProviderOptions): void {
  if (options.api !== 'responses') return;
  throw new ToolgaugeError(
    'CONFIG_INVALID',
    `provider ${providerId}: option api: 'responses' applies to openai providers only (openai:, openai-compatible:)`,
    { provider: providerId },
  );
}
