import type { Diagnostic } from '../contracts/parse.js';

/** A call found in text before the caller decides how it was wrapped (`via`). */
export interface FoundCall {
  name: string;
  args: unknown;
  rawArgs: string;
  shape: 'xml-tags' | 'json' | 'bare-json' | 'python-call';
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
