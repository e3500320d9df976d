import { describe, expect, it } from 'vitest';
import { canonicalJson, hashOf } from './canonical-json.js';

const nested = (levels: number, inner: string) => `${'{"b":2,"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`;

describe('canonicalJson', () => {
  it('sorts keys at every depth and leaves undefined members out', () => {
    expect(canonicalJson({ b: [{ d: 1, c: undefined, a: null }], a: 'x' })).toBe('{"a":"x","b":[{"a":null,"d":1}]}');
  });

  it('keeps a __proto__ key as an ordinary key, at any depth', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"number"}}}');
    expect(canonicalJson(schema)).toBe(
      '{"properties":{"__proto__":{"type":"string"},"a":{"type":"number"}},"type":"object"}',
    );
    const without = JSON.parse('{"type":"object","properties":{"a":{"type":"number"}}}');
    expect(hashOf(schema)).not.toBe(hashOf(without));
    expect(canonicalJson(JSON.parse('{"__proto__":{"z":1,"y":2}}'))).toBe('{"__proto__":{"y":2,"z":1}}');
    // the key is data, never the prototype of the copy
    expect(canonicalJson(JSON.parse('{"__proto__":[1]}'))).toBe('{"__proto__":[1]}');
  });

  it('writes values nested deeper than the stack allows, keys sorted all the way down', () => {
    const levels = 20_000;
    const value = JSON.parse(nested(levels, '{"__proto__":1,"y":[]}'));
    const expected = `${'{"a":'.repeat(levels)}{"__proto__":1,"y":[]}${',"b":2}'.repeat(levels)}`;
    expect(canonicalJson(value)).toBe(expected);
    expect(hashOf(value)).toBe(hashOf(JSON.parse(expected)));
  });
});
