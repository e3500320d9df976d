import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { visible } from '../util/visible-text.js';
import { escapeHtml } from './html-escape.js';
import { xmlEscape } from './junit.js';

/** The plain definitions the fast paths must equal: every replacement, always (controls shown, as on a terminal). */
function htmlReference(text: string): string {
  return visible(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function xmlReference(text: string): string {
  return visible(text)
    .replace(/[\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

// strings rich in the characters that matter: specials, control characters, lone and paired surrogates
const tricky = fc.string({
  unit: fc.oneof(
    fc.constantFrom('&', '<', '>', '"', "'", '\u0000', '\u0008', '\t', '\n', '\r', '\u001F', '\uFFFE', '\uFFFF'),
    fc.constantFrom('\u001b', '\u007f', '\u009b', '\u202e', '\u2066', '\u2028'),
    fc.constantFrom('\uD83D', '\uDE00', '\uD83D\uDE00', 'a', ' ', '名', '&amp;'),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

describe('report escaping', () => {
  it('escapeHtml equals every replacement applied in turn', () => {
    fc.assert(fc.property(tricky, (s) => escapeHtml(s) === htmlReference(s)));
    expect(escapeHtml(`<a href="x">Tom's & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; Jerry&lt;/a&gt;',
    );
  });

  it('xmlEscape equals every replacement applied in turn, and returns clean text as it is', () => {
    fc.assert(fc.property(tricky, (s) => xmlEscape(s) === xmlReference(s)));
    expect(xmlEscape('\uD83D\uDE00 ok')).toBe('\uD83D\uDE00 ok');
    expect(xmlEscape('bad \u0001 \uDE00 <x> \u001b[2K\r')).toBe('bad \\x01 \uFFFD &lt;x&gt; \\x1b[2K\\r');
  });
});
