import { describe, expect, it } from 'vitest';
import { createExcelState } from './fixtures.js';
import { evaluateFormula, parseFormula, unknownFunctions } from './formula.js';
import type { Workbook } from './workbook.js';

const books = createExcelState().files;
const test = books.get('test.xlsx') as Workbook;
const sheet1 = test.sheets[0] as Workbook['sheets'][number];
const ev = (f: string) => evaluateFormula(f, test, sheet1);

describe('formula engine', () => {
  it('evaluates functions over ranges, arithmetic and precedence', () => {
    expect(ev('=SUM(B2:B6)')).toBe(435);
    expect(ev('=AVERAGE(C2:C6)')).toBe(8.8);
    expect(ev('=MAX(B2:B6)-MIN(B2:B6)')).toBe(125);
    expect(ev('=B2*C2')).toBe(660);
    expect(ev('=1+2*3')).toBe(7);
    expect(ev('=(1+2)*3')).toBe(9);
    expect(ev('=-B2/4')).toBe(-30);
    expect(ev('=ROUND(C3*3, 1)')).toBe(9.6);
    expect(ev('=COUNT(A1:C6)')).toBe(10);
    expect(ev('=COUNTA(A1:C6)')).toBe(18);
    expect(ev('=SUM(Sheet2!C2:C3)')).toBe(8200);
    expect(ev("=SUM('Sheet2'!C2:C3)")).toBe(8200);
  });

  it('returns Excel error values for runtime problems', () => {
    expect(ev('=B2/0')).toBe('#DIV/0!');
    expect(ev('=A2+1')).toBe('#VALUE!');
    expect(ev('=SUM(Nope!A1:A2)')).toBe('#REF!');
    expect(ev('=VLOOKUP(1, A1:B2, 2)')).toBe('#NAME?');
  });

  it.each([
    ['=SUM(B2:B6', 'missing closing parenthesis'],
    ['=SUM(B2:B6))', "unmatched ')'"],
    ['=', 'the formula is empty'],
    ['=B2 +', 'unexpected end of formula'],
    ['=FOO + 1', "'FOO' is not a cell reference or a known function"],
    ['="abc', 'unterminated string literal'],
  ])('rejects %s (%s)', (formula, message) => {
    expect(() => parseFormula(formula)).toThrow(message);
  });

  it('reports functions it cannot evaluate', () => {
    expect(unknownFunctions(parseFormula('=SUM(A1:A2)+XLOOKUP(1, A1:A2, B1:B2)'))).toEqual(['XLOOKUP']);
  });
});
