import { echoResponder } from './responders.js';
import { startLlmMock } from './server.js';
import type { FaultPlan, LlmMockHandle, Responder } from './types.js';

export interface ServeLlmOptions {
  port?: number;
  host?: string;
  responder?: Responder;
  faults?: FaultPlan;
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
  });
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  log(`toolgauge LLM wire mock listening on ${handle.url}`);
  log(`  OpenAI     POST ${handle.url}/v1/chat/completions   (baseURL ${handle.url}/v1)`);
  log(`  OpenAI     POST ${handle.url}/v1/responses          (Responses API; provider option api: responses)`);
  log(`  Anthropic  POST ${handle.url}/v1/messages           (baseURL ${handle.url})`);
  log(`  Ollama     POST ${handle.url}/api/chat              (host ${handle.url})`);
  return handle;
}
