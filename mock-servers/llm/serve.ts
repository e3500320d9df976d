import { echoResponder } from './responders.js';
import { startLlmMock } from './server.js';
import type { FaultPlan, LlmMockHandle, Responder } from './types.js';

export interface ServeLlmOptions {
  port?: number;
  host?: string;
  responder?: Responder;
  faults?: FaultPlan;
  /** Largest request body read, in bytes (default 32 MiB); a larger one gets 413. */
  maxBodyBytes?: number;
  /** Where to print the banner (defaults to stderr, so stdout stays clean for pipes). */
  log?: (line: string) => void;
}

/** For `toolgauge serve llm [--port N]`: starts the wire mock with the echo responder and prints how to use it. */
export async function serveLlm(options: ServeLlmOptions = {}): Promise<LlmMockHandle> {
  const handle = await startLlmMock({
    responder: options.responder ?? echoResponder,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
  });
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  log(`toolgauge LLM wire mock listening on ${handle.url}`);
  log('provider entries for a config, one per wire protocol (the model name is free):');
  for (const wire of wireConfigs(handle.url)) {
    log(
      `  ${wire.api.padEnd(24)} POST ${`${handle.url}${wire.path}`.padEnd(handle.url.length + 21)} ${wire.entry}${wire.note ? `  (${wire.note})` : ''}`,
    );
  }
  return handle;
}

/** How a provider reaches one wire protocol of the mock: the route it posts to and the config entry that does it. */
export interface WireConfig {
  api: string;
  path: string;
  /** A `providers:` entry of a config, in YAML flow style, ready to paste. */
  entry: string;
  note?: string;
}

/**
 * The provider entry for each wire protocol the mock at `url` speaks: the option names and base URL forms are the
 * providers' own (openai-compatible wants the `/v1` prefix, anthropic and ollama the bare origin).
 */
export function wireConfigs(url: string): WireConfig[] {
  return [
    {
      api: 'OpenAI Chat Completions',
      path: '/v1/chat/completions',
      entry: `{ id: openai-compatible:mock, options: { baseURL: ${url}/v1 } }`,
    },
    {
      api: 'OpenAI Responses',
      path: '/v1/responses',
      entry: `{ id: openai-compatible:mock, options: { baseURL: ${url}/v1, api: responses } }`,
    },
    {
      api: 'Anthropic Messages',
      path: '/v1/messages',
      entry: `{ id: anthropic:mock, options: { baseURL: ${url} } }`,
      // The provider insists on a key; the mock reads none.
      note: 'ANTHROPIC_API_KEY: any value',
    },
    { api: 'Ollama', path: '/api/chat', entry: `{ id: ollama:mock, options: { baseURL: ${url} } }` },
  ];
}
