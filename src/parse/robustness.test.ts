import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL_INPUTS, ADVERSARIAL_TOOLS, SYNTAX_FRAGMENTS } from '../../tests/fixtures/parse/adversarial.js';
import type { Protocol } from '../contracts/model.js';
import { parseResponse } from './index.js';

const PROTOCOLS: Protocol[] = ['native', 'xml-tags', 'json', 'python-call'];

function parsesWithoutThrowing(text: string, protocols = PROTOCOLS): void {
  for (const protocol of protocols) {
    // with no tools, and with tools offered (tool-named XML and schema conversion run only then)
    for (const context of [{}, { tools: ADVERSARIAL_TOOLS }]) {
      const r = parseResponse({ text, toolCalls: [] }, protocol, context);
      expect(Array.isArray(r.calls)).toBe(true);
      expect(r.diagnostics.every((d) => d.code !== 'other' || !d.message.startsWith('parser fault'))).toBe(true);
    }
  }
}

describe('parseResponse never throws', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => parsesWithoutThrowing(s)),
      { numRuns: 300 },
    );
  });

  it('on strings built from call syntax fragments', () => {
    const fragment = fc.constantFrom(...SYNTAX_FRAGMENTS);
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 60 }).map((a) => a.join('')),
        (s) => parsesWithoutThrowing(s),
      ),
      {
        numRuns: 300,
      },
    );
  });

  it.each(ADVERSARIAL_INPUTS)('on adversarial input: %s', (_, text) => {
    // parsing does not depend on the protocol (only acceptedCalls does): one pass is enough here
    parsesWithoutThrowing(text, ['xml-tags']);
  });

  it('on native calls with junk arguments', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (args) => {
        const r = parseResponse({ text: '', toolCalls: [{ id: '1', name: 'f', arguments: args }] }, 'native');
        expect(r.calls.length + r.diagnostics.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});
