import type { Message, ModelRequest, Protocol, RenderedTool } from '../contracts/model.js';
import { hashOf } from '../util/canonical-json.js';
import { redactSecrets } from '../util/redact.js';

/**
 * Exactly what a provider's answer can depend on, and therefore what a cassette is keyed by. A real provider sees
 * only what goes over the wire (system, messages, tools, protocol, stop) plus its model and model parameters; a
 * simulated provider is also seeded by `meta` (seed, case, repeat, turn), so meta is part of its key only. The
 * expectations a simulated provider is given beside the request (not part of it), `meta.renderer`, cache hints and transport options (URL, retries, timeouts, keys) never are.
 */
export interface CassetteRequest {
  provider: string;
  options: Record<string, unknown>;
  system: string;
  messages: Message[];
  tools?: RenderedTool[];
  protocol: Protocol;
  stop?: string[];
  meta?: { caseId: string; repeat: number; seed: number; turn: number };
}

/** Where in a run an exchange happened: breaks ties between identical requests (e.g. repeats of a real model). */
export interface CassetteSlot {
  caseId: string;
  renderer: string;
  repeat: number;
  turn: number;
}

/** Provider options that change how a request travels, not what the model answers. */
const TRANSPORT_OPTIONS = new Set([
  'baseURL',
  'apiKeyEnv',
  'headers',
  'stream',
  'timeoutMs',
  'maxRetries',
  'concurrency',
  'rpm',
  'retryBaseMs',
  'retryMaxMs',
  'latencyMs',
  'transport',
  'maxResponseMb',
]);

export function modelOptions(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([k]) => !TRANSPORT_OPTIONS.has(k)));
}

export interface KeyedProvider {
  id: string;
  simulated: boolean;
  options: Record<string, unknown>;
}

/** The canonical, redacted request a cassette entry stores and hashes. */
export function cassetteRequest(provider: KeyedProvider, request: ModelRequest): CassetteRequest {
  const { caseId, repeat, seed, turn } = request.meta;
  const out: CassetteRequest = {
    provider: provider.id,
    options: modelOptions(provider.options),
    system: request.system,
    messages: request.messages,
    protocol: request.protocol,
  };
  if (request.tools) out.tools = request.tools;
  if (request.stop) out.stop = request.stop;
  if (provider.simulated) out.meta = { caseId, repeat, seed, turn };
  return redactSecrets(out);
}

export function cassetteSlot(request: ModelRequest): CassetteSlot {
  const { caseId, renderer, repeat, turn } = request.meta;
  return { caseId, renderer, repeat, turn };
}

/** SHA-256 of the canonical JSON of the (already redacted) request. */
export function cassetteKey(request: CassetteRequest): string {
  return hashOf(request);
}
