import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { exampleArgs, exampleValue } from './example-value.js';

describe('exampleValue', () => {
  it.each([
    [{ type: 'string', enum: ['a', 'b'] }, 'a'],
    [{ const: 7 }, 7],
    [{ type: 'integer', default: 3 }, 3],
    [{ type: 'integer', minimum: 5, maximum: 9 }, 5],
    [{ type: 'number', exclusiveMinimum: 0 }, 1],
    [{ type: 'integer', maximum: 0 }, 0],
    [{ type: 'boolean' }, true],
    [{ type: ['null', 'string'], format: 'date' }, '2024-01-31'],
    [{ anyOf: [{ type: 'null' }, { type: 'integer', minimum: 2 }] }, 2],
    [{ type: 'array', items: { type: 'string' }, minItems: 2 }, ['example tag', 'example tag']],
    [{ type: 'string', description: 'Path to the Excel file (e.g. "test.xlsx")' }, 'test.xlsx'],
    [{ type: 'object', minProperties: 1, additionalProperties: { type: ['number', 'boolean'] } }, { example_key: 1 }],
    [{ type: 'object', minProperties: 1, properties: { a: { type: 'string', enum: ['x'] } } }, { a: 'x' }],
  ])('%j → %j', (schema, value) => {
    expect(exampleValue(schema, 'tags')).toEqual(value);
  });

  it("fills an object's required properties, through local $refs, valid against the schema", () => {
    const schema = {
      type: 'object',
      $defs: { Cell: { type: 'object', properties: { row: { type: 'integer', minimum: 1 } }, required: ['row'] } },
      properties: {
        filepath: { type: 'string' },
        cell: { $ref: '#/$defs/Cell' },
        rows: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        optional: { type: 'string' },
      },
      required: ['filepath', 'cell', 'rows'],
    };
    const args = exampleArgs(schema);
    expect(args).toEqual({ filepath: 'example.txt', cell: { row: 1 }, rows: [['example row']] });
    expect(new Ajv({ strict: false }).validate(schema, args)).toBe(true);
  });
});
