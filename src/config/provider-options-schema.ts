import { z } from 'zod';

/*
 * The config format of a built-in provider: the prefixes its ids start with and the options the SDK providers accept.
 * The providers (providers/) read their options with these schemas; the config checks `--provider-option` flags
 * against them before any provider is made.
 */

/** The id prefixes of the built-in providers (`openai:gpt-4o-mini`); providers/index.ts has a loader for each. */
export const BUILTIN_PROVIDER_PREFIXES = ['openai', 'anthropic', 'ollama', 'openai-compatible', 'sim'] as const;
export type BuiltinProviderPrefix = (typeof BUILTIN_PROVIDER_PREFIXES)[number];

export function isBuiltinProviderPrefix(prefix: string): prefix is BuiltinProviderPrefix {
  return (BUILTIN_PROVIDER_PREFIXES as readonly string[]).includes(prefix);
}

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
     * The most of one response body read, in MiB (as decoded): a server that answers more (a runaway or hostile one)
     * fails the request as PROVIDER_BAD_RESPONSE, not retried, instead of taking the process's memory.
     */
    maxResponseMb: z.number().positive().max(4096).default(64),
    /**
     * Which OpenAI API the openai and openai-compatible providers call: 'chat' (Chat Completions,
     * `POST /chat/completions`) or 'responses' (the Responses API, `POST /responses`, which newer OpenAI models and
     * features target first). Other providers reject 'responses' (see rejectResponsesApi).
     */
    api: z.enum(['chat', 'responses']).default('chat'),
  })
  .strict();

export type ProviderOptions = z.output<typeof providerOptionsSchema>;
