import type { ModelResponse } from '../contracts/model.js';
import { ToolgaugeError } from '../errors.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The reply a provider handed over, checked against the contract's shape before anything reads it: a server that
 * breaks its API (a tool call whose `function.name` is null, content that is a number) went on to fail deep inside
 * the parser as an INTERNAL error, which reads as toolgauge's own bug. It is the server's: PROVIDER_BAD_RESPONSE
 * naming what was wrong. (A model's mistakes inside well-formed fields, such as arguments that are not JSON, are data.)
 */
export function checkReplyShape(providerId: string, response: unknown): ModelResponse {
  const bad = (what: string) =>
    new ToolgaugeError('PROVIDER_BAD_RESPONSE', `provider ${providerId}: the reply's ${what}`, {
      provider: providerId,
    });
  if (!isObject(response)) throw bad('is not an object');
  if (typeof response.text !== 'string') throw bad(`text is ${typeof response.text}, not a string`);
  if (!Array.isArray(response.toolCalls)) throw bad('tool calls are not a list');
  for (const [i, call] of response.toolCalls.entries()) {
    if (!isObject(call)) throw bad(`tool call ${i + 1} is not an object`);
    if (typeof call.name !== 'string')
      throw bad(`tool call ${i + 1} has no name (${call.name === null ? 'null' : typeof call.name})`);
    if (typeof call.arguments !== 'string' && !isObject(call.arguments)) {
      throw bad(`tool call ${i + 1} (${call.name.slice(0, 60)}) has arguments that are neither text nor an object`);
    }
  }
  return response as unknown as ModelResponse;
}
