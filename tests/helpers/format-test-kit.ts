import { expect } from 'vitest';
import type { ParseResult } from '../../src/contracts/parse.js';
import { acceptedCalls, parseResponse } from '../../src/parse/index.js';

/** Test helpers for the format tests (left out of the build). */

/** A reply parsed as a live reply to an xml-tags request offering no tools. */
export const parse = (text: string): ParseResult => parseResponse({ text, toolCalls: [] }, 'xml-tags');

/** The diagnostics' codes, in order. */
export const codes = (r: ParseResult) => r.diagnostics.map((d) => d.code);

/** No strict detector for a text protocol accepts any call of `r` (a model-native format is never the protocol). */
export function notAccepted(r: ParseResult): void {
  for (const protocol of ['xml-tags', 'json', 'python-call'] as const) expect(acceptedCalls(r, protocol)).toEqual([]);
}
