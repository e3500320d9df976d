import type { Diagnostic, ParseTool, TextShape } from '../contracts/parse.js';
import { takeCandidate } from './reply-budget.js';

/** A call found in text before the caller decides how it was wrapped (`via`). */
export interface FoundCall {
  name: string;
  args: unknown;
  rawArgs: string;
  shape: TextShape;
  repaired: boolean;
  truncated: boolean;
  doubleEncoded: boolean;
  id?: string;
  span: [number, number];
}

/** What a finder may know besides the text it searches. */
export interface FinderContext {
  /** The tools the request offered (empty when unknown, as for a reply graded without a suite). */
  tools: readonly ParseTool[];
  /**
   * The reply as the model wrote it. A finder searches the masked text it is given (regions earlier finders claimed,
   * and reasoning blocks, are spaces there) but reads argument text from here, at the same offsets, so a string
   * value that holds a fence or tag-like text is kept as written.
   */
  source: string;
}

/** Finds one family of call shapes in a reply. Linear in the text; never throws on model output. */
export type Finder = (text: string, ctx: FinderContext) => Found;

export interface Found {
  calls: FoundCall[];
  diagnostics: Diagnostic[];
  /** Regions the finder consumed (masked before the next finder runs). */
  spans: Array<[number, number]>;
}

/**
 * How much of one reply a finder reads: at most 1,000 calls and diagnostics of its own, and candidate regions (tags,
 * fences, brackets it tries to parse) while the reply's shared budget lasts (reply-budget.ts), or `maxCandidates` of
 * its own when given. Past that the reply is a runaway (a model looping on one call) or garbage: the finder stops,
 * says where, and claims the rest of the reply, so the finders after it do not read it either.
 */
export const MAX_FINDINGS_PER_REPLY = 1_000;

/**
 * Call before reading each candidate region, with the finder's own count of candidates including this one: true
 * when the finder must stop (a diagnostic then says where, and the rest of the reply, up to `end`, is claimed).
 */
export function atReadLimit(
  found: { calls: unknown[]; diagnostics: Diagnostic[]; spans: Array<[number, number]> },
  shape: string,
  at: number,
  end: number,
  candidates: number,
  maxCandidates = Number.POSITIVE_INFINITY,
): boolean {
  if (
    found.calls.length + found.diagnostics.length < MAX_FINDINGS_PER_REPLY &&
    candidates <= maxCandidates &&
    takeCandidate()
  ) {
    return false;
  }
  found.diagnostics.push({
    code: 'other',
    message: `${shape}: stopped reading at offset ${at}: the reply holds more calls, attempts or candidates than the parser reads in one reply`,
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
