import { describe, expect, it } from 'vitest';
import { ToolFailure } from '../tool-kit.js';
import { colToLetters, lettersToCol, parseCell, parseRange, rangeName } from './cells.js';

describe('A1 addressing', () => {
  it('converts columns both ways', () => {
    expect([1, 26, 27, 52, 703, 16384].map(colToLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'AAA', 'XFD']);
    for (const n of [1, 26, 27, 52, 703, 16384]) expect(lettersToCol(colToLetters(n))).toBe(n);
  });

  it('parses cells, absolute refs and lowercase', () => {
    expect(parseCell('B7')).toEqual({ row: 7, col: 2 });
    expect(parseCell('$AA$10')).toEqual({ row: 10, col: 27 });
    expect(parseCell(' c3 ')).toEqual({ row: 3, col: 3 });
  });

  it.each([
    ['A0', 'rows start at 1'],
    ['ZZZ', 'missing the row number'],
    ['12', 'missing the column letter'],
    ['A1:B2', 'not a range'],
    ['XFE1', 'last column of a worksheet is XFD'],
    ['A1048577', 'last row of a worksheet is 1048576'],
    ['B-2', 'e.g. A1, B2'],
  ])('rejects %s with a message naming the valid form', (ref, message) => {
    expect(() => parseCell(ref, 'start_cell')).toThrow(ToolFailure);
    expect(() => parseCell(ref, 'start_cell')).toThrow(message);
  });

  it('parses ranges, normalises corners and splits sheet qualifiers', () => {
    expect(rangeName(parseRange('C6:A1').range)).toBe('A1:C6');
    expect(parseRange("'My Sheet'!B2:D4")).toMatchObject({ sheet: 'My Sheet' });
    expect(parseRange('Q1!A1').sheet).toBe('Q1');
    expect(() => parseRange('A1:')).toThrow('expected a range like A1:C6');
  });
});
