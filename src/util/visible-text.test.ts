import { describe, expect, it } from 'vitest';
import { visible, visibleInline } from './visible-text.js';

describe('visible text', () => {
  it('shows what a terminal would act on, keeps line feeds and tabs (or not, inline), and JSON stays JSON', () => {
    expect(visible('a\u001b]0;t\u0007b\r\n\tc\u0000\u009b\u202e\u2028')).toBe(
      `${String.raw`a\x1b]0;t\x07b\r`}\n\tc${String.raw`\x00\u009b\u202e\u2028`}`,
    );
    expect(visibleInline('a\nb\r')).toBe(String.raw`a\nb\r`);
    expect(visible('plain 名 text')).toBe('plain 名 text');
    const json = JSON.stringify({ s: 'x\u009b\u202ey\u001b\u007f\u2028' });
    expect(JSON.parse(visible(json))).toEqual({ s: 'x\u009b\u202ey\u001b\u007f\u2028' });
  });
});
