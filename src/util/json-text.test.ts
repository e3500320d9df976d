import { describe, expect, it } from 'vitest';
import { depthExceeds, nestsTooDeep, textDepthExceeds } from './json-depth.js';
import { jsonText } from './json-text.js';

/** Values of every kind JSON.stringify treats specially. */
const samples: unknown[] = [
  null,
  0,
  -1.5e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  'text "quoted" \\ \n \u2028 名称 😀',
  true,
  [],
  {},
  [undefined, () => 1, Symbol('s'), null, [[]], [{}]],
  { u: undefined, f: () => 1, n: null, e: {}, a: [], nested: { deeper: [1, { x: 'y' }] } },
  { date: new Date(0), toJSON: undefined },
  { custom: { toJSON: (key: string) => `key:${key}` } },
  JSON.parse('{"__proto__":{"b":1,"a":2},"z":[3]}'),
  { é: 1, B: 2, a: 3, '10': 4, '9': 5 },
];

/** The keys sorted at every depth, for comparing the explicit-stack writer with JSON.stringify. */
function sorted(value: unknown): unknown {
  const v = JSON.parse(JSON.stringify(value) ?? 'null');
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (x === null || typeof x !== 'object') return x;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(x).sort())
      Object.defineProperty(out, k, { value: walk((x as Record<string, unknown>)[k]), enumerable: true });
    return out;
  };
  return walk(v);
}

const deepText = (levels: number) => `${'{"a":['.repeat(levels)}1${']}'.repeat(levels)}`;

describe('jsonText', () => {
  it.each([0, 2, 4])('is JSON.stringify(value, null, %i) for every kind of value', (indent) => {
    for (const v of samples) expect(jsonText(v, { indent })).toBe(JSON.stringify(v, null, indent));
    expect(jsonText(undefined)).toBeUndefined();
    expect(() => jsonText({ n: 1n })).toThrow(TypeError);
  });

  it.each([0, 2])(
    'writes sorted keys with its explicit-stack writer exactly as JSON.stringify would (indent %i)',
    (indent) => {
      for (const v of samples) {
        if (v === undefined || JSON.stringify(v) === undefined) continue;
        expect(jsonText(v, { indent, sortKeys: true })).toBe(JSON.stringify(sorted(v), null, indent));
      }
    },
  );

  it('writes a value nested deeper than JSON.stringify can recurse', () => {
    const text = deepText(20_000);
    const value = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(jsonText(value)).toBe(text);
    expect(jsonText({ top: [value, undefined], after: 1 })).toBe(`{"top":[${text},null],"after":1}`);
    // the explicit-stack writer (sortKeys takes it from the start) indents as JSON.stringify does, deep or not
    const deepish = JSON.parse(deepText(1000));
    expect(jsonText(deepish, { indent: 2, sortKeys: true })).toBe(JSON.stringify(deepish, null, 2));
  });

  it('indents only `indentLevels` levels; deeper containers go on one line', () => {
    const value = { a: [{ b: { c: [1, 2] } }], d: 1 };
    expect(jsonText(value, { indent: 2, indentLevels: 2 })).toBe(
      '{\n  "a": [\n    {"b":{"c":[1,2]}}\n  ],\n  "d": 1\n}',
    );
    expect(jsonText(value, { indent: 2, indentLevels: 10 })).toBe(JSON.stringify(value, null, 2));
    const deep = jsonText(JSON.parse(deepText(5000)), { indent: 2, indentLevels: 32 }) as string;
    expect(deep.length).toBeLessThan(deepText(5000).length + 5000);
    expect(JSON.parse(deep)).toBeTypeOf('object');
  });
});

describe('json depth', () => {
  it('measures values and text at any depth', () => {
    expect(depthExceeds({ a: [1] }, 2)).toBe(false);
    expect(depthExceeds({ a: [1] }, 1)).toBe(true);
    expect(depthExceeds('x', 0)).toBe(false);
    expect(depthExceeds(JSON.parse(deepText(50_000)))).toBe(true);
    expect(textDepthExceeds(deepText(64))).toBe(false);
    expect(textDepthExceeds(deepText(65))).toBe(true);
    // brackets inside strings are text
    expect(textDepthExceeds(`{"a":"${'['.repeat(1000)}"}`)).toBe(false);
    expect(textDepthExceeds(`{"a":"\\"${'['.repeat(1000)}"}`)).toBe(false);
  });

  it('calls arguments too deep from 128 levels: what the parser bounds reaches exactly that depth', () => {
    expect(nestsTooDeep(JSON.parse(`${'['.repeat(127)}${']'.repeat(127)}`))).toBe(false);
    expect(nestsTooDeep(JSON.parse(`${'['.repeat(128)}${']'.repeat(128)}`))).toBe(true);
    expect(nestsTooDeep(`${'['.repeat(128)}${']'.repeat(128)}`)).toBe(true);
    expect(nestsTooDeep('plain text')).toBe(false);
  });
});
