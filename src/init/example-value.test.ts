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
    [{ type: 'integer', exclusiveMinimum: 2, exclusiveMaximum: 5 }, 3],
    [{ type: 'number', minimum: 0.5, multipleOf: 0.25 }, 0.5],
    [{ type: 'integer', minimum: 7, multipleOf: 5 }, 10],
    [{ type: 'string', maxLength: 4 }, 'exam'],
    [{ type: 'string', pattern: '^[A-Z]{2}-\\d{3}$' }, 'AA-000'],
    [{ type: 'string', format: 'ipv4' }, '192.0.2.1'],
    [{ type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true }, ['example tag', 'example tag 2']],
    [{ type: 'array', items: [{ type: 'integer' }, { type: 'boolean' }] }, [1, true]],
    [
      { allOf: [{ properties: { a: { type: 'integer' } }, required: ['a'] }, { required: ['b'] }] },
      { a: 1, b: 'example b' },
    ],
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
