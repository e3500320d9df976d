import type { LlmApi, MockReply, MockUsage } from './types.js';

/** A reply rendered for the wire: a JSON body is one frame; a stream is the list of frames in order. */
export interface WireOutput {
  contentType: string;
  frames: string[];
}

/** What every writer needs besides the reply. */
export interface WireContext {
  model: string;
  requestNumber: number;
  usage: MockUsage;
  /** OpenAI `stream_options.include_usage`. */
  includeUsage: boolean;
}

/** Splits text into up to three pieces so streams really arrive in several deltas. */
export function pieces(text: string, count = 3): string[] {
  if (text.length <= 1) return text ? [text] : [];
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Rough token counts (~4 characters a token) when the responder gives no usage: deterministic, good enough. */
export function estimateUsage(requestBody: string, reply: MockReply): MockUsage {
  const out = (reply.text ?? '') + JSON.stringify(reply.toolCalls ?? []);
  return { input: Math.ceil(requestBody.length / 4), output: Math.ceil(out.length / 4) };
}

export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** An unparsable frame in the API's framing (for the `malformed` fault). */
export function malformedFrame(api: LlmApi): string {
  switch (api) {
    case 'openai':
      return 'data: {"id": "chatcmpl-broken", "choices": [\n\n';
    case 'openai-responses':
      return 'event: response.output_text.delta\ndata: {"type": "response.output_text.delta", "delta": \n\n';
    case 'anthropic':
      return 'event: content_block_delta\ndata: {"type": "content_block_delta", "index": \n\n';
    case 'ollama':
      return '{"model": "broken", "message": \n';
  }
}

/** The API's own error body. */
export function errorBody(api: LlmApi, status: number, message: string): unknown {
  switch (api) {
    case 'openai':
    case 'openai-responses': {
      const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
      return { error: { message, type, code: String(status) } };
    }
    case 'anthropic': {
      const type =
        status === 429
          ? 'rate_limit_error'
          : status === 401
            ? 'authentication_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error';
      return { type: 'error', error: { type, message } };
    }
    case 'ollama':
      return { error: message };
  }
}
