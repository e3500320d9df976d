import type { Diagnostic } from '../contracts/parse.js';

/** A call found in text before the caller decides how it was wrapped (`via`). */
export interface FoundCall {
  name: string;
  args: unknown;
  rawArgs: string;
  shape: 'xml-tags' | 'function-tags' | 'json' | 'bare-json' | 'python-call';
  repaired: boolean;
  truncated: boolean;
  doubleEncoded: boolean;
  id?: string;
  span: [number, number];
}

export interface Found {
  calls: FoundCall[];
  diagnostics: Diagnostic[];
  /** Regions the finder consumed (masked before the next finder runs). */
  spans: Array<[number, number]>;
}

/**
 * The most calls and diagnostics one finder reports for one reply. A reply with more is a runaway (a model looping
 * on one call, or garbage), and every finding costs objects and report space: at the limit the finder stops, says
 * so, and claims the rest of the reply, so the finders after it do not read it either.
 */
export const MAX_FINDINGS_PER_REPLY = 1_000;

/** Whether `found` is at the limit; if so, a diagnostic says where the finder stopped, and the rest is claimed. */
export function atCallLimit(
  found: { calls: unknown[]; diagnostics: Diagnostic[]; spans: Array<[number, number]> },
  shape: string,
  at: number,
  end: number,
): boolean {
  if (found.calls.length + found.diagnostics.length < MAX_FINDINGS_PER_REPLY) return false;
  found.diagnostics.push({
    code: 'other',
    message: `more than ${MAX_FINDINGS_PER_REPLY} ${shape} calls or attempts in one reply: the rest, from offset ${at}, is not read`,
  });
  found.spans.push([at, end]);
  return true;
}

export function emptyFound(): Found {
  return { calls: [], diagnostics: [], spans: [] };
}

export function mergeFound(into: Found, from: Found): Found {
  into.calls.push(...from.calls);
  into.diagnostics.push(...from.diagnostics);
  into.spans.push(...from.spans);
  return into;
}

const EXAMPLE_MARKERS = /(for example|for instance|e\.g\.|example:|an example|例如|示例|比如|举例)/i;

/** Whether the text just before `start` introduces an example ("For example: {…}"), not a call. */
export function isIntroducedAsExample(text: string, start: number): boolean {
  return EXAMPLE_MARKERS.test(text.slice(Math.max(0, start - 80), start));
}
