import { describe, expect, it } from 'vitest';
import type { ToolDef } from '../contracts/tool.js';
import { matchCall, standardizeString, valueEquals, writtenAsFloat } from './match-args.js';

const triangle: ToolDef = {
  name: 'calculate_triangle_area',
  server: 'inline',
  inputSchema: {
    type: 'object',
    properties: {
      base: { type: 'integer' },
      height: { type: 'integer' },
      unit: { type: 'string' },
      scale: { type: 'number' },
    },
    required: ['base', 'height'],
  },
};
const expected = {
  tool: 'calculate_triangle_area',
  args: { base: [10], height: [5], unit: ['units', ''], scale: [1.0, ''] },
};
const call = (args: Record<string, unknown>, rawArgs = JSON.stringify(args), tool = 'calculate_triangle_area') => ({
  tool,
  args,
  rawArgs,
});

describe('BFCL rules (matchCall)', () => {
  it('a correct call matches; "" lets a parameter be omitted', () => {
    expect(matchCall(call({ base: 10, height: 5 }), expected, triangle)).toEqual([]);
    expect(matchCall(call({ base: 10, height: 5, unit: 'units' }), expected, triangle)).toEqual([]);
  });

  it('wrong value', () => {
    expect(matchCall(call({ base: 10, height: 6 }), expected, triangle)).toEqual(['height=6; expected one of [5]']);
  });

  it('missing required parameter', () => {
    expect(matchCall(call({ base: 10 }), expected, triangle)).toEqual([
      'missing required parameter height; expected one of [5]',
    ]);
    const noExpect = { tool: 'calculate_triangle_area' };
    expect(matchCall(call({ base: 10 }), noExpect, triangle)).toEqual(['missing required parameter height']);
  });

  it('extra parameter: unknown to the schema, or not in the expected answer', () => {
    expect(matchCall(call({ base: 10, height: 5, color: 'red' }), expected, triangle)).toEqual([
      "unknown parameter color='red' (not in the schema)",
    ]);
    const narrow = { tool: 'calculate_triangle_area', args: { base: [10], height: [5] } };
    expect(matchCall(call({ base: 10, height: 5, unit: 'cm' }), narrow, triangle)).toEqual([
      "unexpected parameter unit='cm'",
    ]);
  });

  it('parameters named like Object.prototype members are parameters, never inherited matches', () => {
    // `'constructor' in {}` is true: a hallucinated `constructor` must still be an unknown or unexpected parameter.
    expect(matchCall(call({ base: 10, height: 5, constructor: 'x' }), expected, triangle)).toEqual([
      "unknown parameter constructor='x' (not in the schema)",
    ]);
    expect(matchCall(call({ base: 10, height: 5, toString: 1 }), expected, undefined)).toEqual([
      'unexpected parameter toString=1',
    ]);
    const proto: ToolDef = {
      name: 'f',
      server: 'inline',
      inputSchema: { type: 'object', properties: { valueOf: { type: 'string' } }, required: ['valueOf'] },
    };
    const wantValueOf = { tool: 'f', args: { valueOf: ['a'] } };
    expect(matchCall(call({}, '{}', 'f'), wantValueOf, proto)).toEqual([
      "missing required parameter valueOf; expected one of ['a']",
    ]);
    expect(matchCall(call({ valueOf: 'a' }, undefined, 'f'), wantValueOf, proto)).toEqual([]);
    expect(valueEquals({ toString: 1 }, {})).toBe(false);
    expect(valueEquals({}, { hasOwnProperty: [1] })).toBe(false);
  });

  it('wrong function', () => {
    expect(matchCall(call({ base: 10, height: 5 }, '', 'calculate_circle_area'), expected, triangle)).toEqual([
      'called calculate_circle_area; expected calculate_triangle_area',
    ]);
  });

  it('int accepted for float', () => {
    expect(
      matchCall(call({ base: 10, height: 5, scale: 1 }, 'base=10, height=5, scale=1'), expected, triangle),
    ).toEqual([]);
  });

  it('float for int fails, also when written 5.0 (JSON and python-call)', () => {
    expect(matchCall(call({ base: 10, height: 5.5 }), expected, triangle)).toEqual([
      'height=5.5 is a float; the schema asks for an integer',
    ]);
    expect(matchCall(call({ base: 10, height: 5 }, '{"base": 10, "height": 5.0}'), expected, triangle)).toEqual([
      'height=5.0 is a float; the schema asks for an integer',
    ]);
    expect(matchCall(call({ base: 10, height: 5 }, 'base=10, height=5.0'), expected, triangle)).toHaveLength(1);
  });

  it('differently-cased strings match after BFCL standardisation; other strings do not', () => {
    expect(matchCall(call({ base: 10, height: 5, unit: 'UNITS' }), expected, triangle)).toEqual([]);
    expect(matchCall(call({ base: 10, height: 5, unit: 'cm' }), expected, triangle)).toEqual([
      "unit='cm'; expected one of ['units'] (or the parameter omitted)",
    ]);
    expect(standardizeString("New York, N.Y. - it's")).toBe('newyorknyit"s');
  });

  it('a string is not a number', () => {
    expect(matchCall(call({ base: '10', height: 5 }), expected, triangle)).toEqual(["base='10'; expected one of [10]"]);
  });
});

describe('valueEquals: nested values', () => {
  it('lists element-wise in order, normalising strings', () => {
    expect(valueEquals(['New York', 'LA'], ['new york', 'la'])).toBe(true);
    expect(valueEquals(['LA', 'New York'], ['new york', 'la'])).toBe(false);
    expect(valueEquals([1, [2, 3]], [1, [2, 3]])).toBe(true);
    expect(valueEquals([1, 2], [1, 2, 3])).toBe(false);
  });

  it('dicts key by key, with nested allowed-value lists and "" for optional keys', () => {
    const allowed = { city: ['Paris', 'paris, france'], days: [3], note: ['', 'x'] };
    expect(valueEquals({ city: 'PARIS', days: 3 }, allowed)).toBe(true);
    expect(valueEquals({ city: 'Paris, France', days: 3, note: 'x' }, allowed)).toBe(true);
    expect(valueEquals({ city: 'Paris', days: 4 }, allowed)).toBe(false);
    expect(valueEquals({ city: 'Paris' }, allowed)).toBe(false);
    expect(valueEquals({ city: 'Paris', days: 3, extra: 1 }, allowed)).toBe(false);
    expect(valueEquals([{ a: 1 }, { a: 2 }], [{ a: [1] }, { a: [2] }])).toBe(true);
    expect(valueEquals([{ a: 2 }, { a: 1 }], [{ a: [1] }, { a: [2] }])).toBe(false);
  });

  it('writtenAsFloat reads the literal as written', () => {
    expect(writtenAsFloat('{"h": 5.0}', 'h')).toBe(true);
    expect(writtenAsFloat('h=1e3', 'h')).toBe(true);
    expect(writtenAsFloat('{"h": 5, "w": 5.0}', 'h')).toBe(false);
  });
});
