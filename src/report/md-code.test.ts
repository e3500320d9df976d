import { describe, expect, it } from 'vitest';
import { mdCode } from './md-code.js';

describe('mdCode', () => {
  it('holds any case id in one code span: backticks, markup and newlines stay text', () => {
    expect(mdCode('excel/case-1|full-details|sim:oracle')).toBe('`excel/case-1|full-details|sim:oracle`');
    expect(mdCode('a`b')).toBe('``a`b``');
    expect(mdCode('a``b`')).toBe('``` a``b` ```');
    expect(mdCode('`start')).toBe('`` `start ``');
    expect(mdCode('<img src=x onerror=alert(1)>\n# heading')).toBe('`<img src=x onerror=alert(1)> # heading`');
  });
});
