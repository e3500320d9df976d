import { describe, expect, it } from 'vitest';
import { ToolgaugeError } from '../../src/errors.js';
import { asObjectSchema, normalizeSchema } from './schema-normalize.js';

describe('normalizeSchema', () => {
  it('forces a top-level object with properties and drops $schema/$id', () => {
    expect(normalizeSchema({ $schema: 'x', $id: 'y' }, 'openai')).toEqual({ type: 'object', properties: {} });
    expect(normalizeSchema({ properties: { a: { type: 'string' } } }, 'anthropic')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
  });

  it('adds required names that have no property, and dedupes required', () => {
    expect(normalizeSchema({ type: 'object', required: ['a', 'a', 3] }, 'openai')).toEqual({
      type: 'object',
      properties: { a: {} },
      required: ['a'],
    });
  });

  it('treats parameters named like Object.prototype members as parameters (found by the property test)', () => {
    const out = normalizeSchema(
      JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["toString","__proto__"]}'),
      'openai',
    );
    expect(Object.keys(out.properties)).toEqual(['__proto__', 'toString']);
    expect(Object.getPrototypeOf(out.properties)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(out))).toEqual(
      JSON.parse(
        '{"type":"object","properties":{"__proto__":{"type":"string"},"toString":{}},"required":["toString","__proto__"]}',
      ),
    );
  });

  it('flattens top-level allOf/anyOf of objects; only allOf members make fields required', () => {
    const out = normalizeSchema(
      {
        allOf: [{ $ref: '#/$defs/Base' }],
        anyOf: [{ type: 'object', properties: { b: { type: 'number' } }, required: ['b'] }],
        $defs: { Base: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
      },
      'openai',
    );
    expect(out.properties).toEqual({ a: { type: 'string' }, b: { type: 'number' } });
    expect(out.required).toEqual(['a']);
    expect(out.anyOf).toBeUndefined();
  });

  it('inlines refs for Ollama, cutting recursion with a described object', () => {
    const input = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node', description: 'the tree' }, enum: { type: 'string' } },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    };
    const out = normalizeSchema(input, 'ollama');
    expect(out).toEqual({
      type: 'object',
      properties: {
        root: {
          type: 'object',
          description: 'the tree',
          properties: { next: { type: 'object', description: '(recursive Node)' } },
        },
        enum: { type: 'string' },
      },
    });
    // The input is left untouched.
    expect(input.properties.root.$ref).toBe('#/$defs/Node');
    // OpenAI takes $defs as they are.
    expect(normalizeSchema(input, 'openai').$defs).toBeDefined();
    expect(normalizeSchema(input, 'openai', { inlineRefs: true }).$defs).toBeUndefined();
  });

  it('turns bare-type unions into a type list for Ollama only', () => {
    const input = { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } };
    expect(normalizeSchema(input, 'ollama').properties.a).toEqual({ type: ['string', 'null'] });
    expect(normalizeSchema(input, 'openai').properties.a).toEqual(input.properties.a);
  });

  it('asObjectSchema accepts normalised schemas and rejects others', () => {
    expect(asObjectSchema({ type: 'object', properties: {} }).type).toBe('object');
    expect(() => asObjectSchema({ type: 'string' })).toThrow(ToolgaugeError);
  });
});
