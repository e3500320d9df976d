import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { ToolgaugeError } from '../../src/errors.js';

/**
 * Folds a Responses API event stream into its final Response. Unlike Chat Completions there is nothing to
 * concatenate: the closing `response.completed` (or `response.incomplete`) event carries the whole response, so the
 * deltas are skipped. We do not use the SDK's `responses.stream()` helper for the reason given in
 * collect-openai-stream.ts: its event machinery costs more CPU per turn than the rest of the turn.
 * `response.failed` and `error` events, and a stream that ends without a final response, are bad responses.
 */
export async function collectOpenAIResponse(
  providerId: string,
  events: AsyncIterable<ResponseStreamEvent>,
): Promise<Response> {
  const bad = (why: string) =>
    new ToolgaugeError('PROVIDER_BAD_RESPONSE', `provider ${providerId}: ${why}`, { provider: providerId });
  let final: Response | undefined;
  for await (const event of events) {
    switch (event.type) {
      case 'response.completed':
      case 'response.incomplete':
        final = event.response;
        break;
      case 'response.failed':
        throw bad(`response failed: ${event.response?.error?.message ?? 'no error message'}`);
      case 'error':
        throw bad(`stream error: ${event.message}`);
    }
  }
  if (final) return final;
  // (A stream the SDK ended quietly because we aborted it also lands here; createSdkProvider reports those as the
  // timeout or cancellation they are.)
  throw bad('stream ended without a response.completed event');
}
