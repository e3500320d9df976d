import { z } from 'zod';
import { ToolgaugeError } from '../../src/errors.js';
import { REDACTED, registerCredentials } from '../../src/util/redact.js';

/** Which tool the model must use: the API's own words are mapped per provider. */
export const toolChoiceSchema = z.union([
  z.enum(['auto', 'required', 'none']),
  z.object({ name: z.string().min(1) }).strict(),
]);
export type ToolChoice = z.infer<typeof toolChoiceSchema>;

/** Options every SDK provider accepts in the config (`providers: [{id: 'openai:gpt-4o-mini', options: {...}}]`). */
export const providerOptionsSchema = z
  .object({
    baseURL: z.string().url().optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    toolChoice: toolChoiceSchema.optional(),
    stream: z.boolean().default(false),
    timeoutMs: z.number().int().positive().default(120_000),
    maxRetries: z.number().int().min(0).max(20).default(3),
    concurrency: z.number().int().positive().default(4),
    rpm: z.number().positive().optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** Base of the exponential backoff between retries (tests make it small). */
    retryBaseMs: z.number().int().min(0).default(500),
    /** Upper bound for one backoff delay (a longer Retry-After is still honoured). */
    retryMaxMs: z.number().int().min(0).default(30_000),
    /**
     * How the SDK clients reach the API: 'fetch' (the default: Node's global fetch, the transport the SDK maintainers
     * ship and test) or 'node-http' (node:http keep-alive, providers/shared/node-http-fetch.ts: a fraction of a
     * millisecond less CPU per request, which only shows against the local wire mock; bench/ sets it to measure the
     * harness's own overhead).
     */
    transport: z.enum(['fetch', 'node-http']).default('fetch'),
    /**
     * Which OpenAI API the openai and openai-compatible providers call: 'chat' (Chat Completions,
     * `POST /chat/completions`) or 'responses' (the Responses API, `POST /responses`, which newer OpenAI models and
     * features target first). Other providers reject 'responses' (see rejectResponsesApi).
     */
    api: z.enum(['chat', 'responses']).default('chat'),
  })
  .strict();

export type ProviderOptions = z.output<typeof providerOptionsSchema>;

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
