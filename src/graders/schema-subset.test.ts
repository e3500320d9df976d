import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { coderTools } from '../../mock-servers/mcp/coder/index.js';
import { economistTools } from '../../mock-servers/mcp/economist/index.js';
import { excelTools } from '../../mock-servers/mcp/excel/index.js';
import { loadSuite, wholeSuite } from '../config/load-suite.js';
import type { JSONSchema } from '../contracts/json-schema.js';
import { checkAgainstSchema, checkWithAjv } from './schema-check.js';
import { compileSubset, type FormatTable } from './schema-subset.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;
/** ajv-formats' table, as schema-check.ts hands it to the subset validator. */
const formats = addFormats(new Ajv()).formats as FormatTable;
const subset = (schema: unknown) => compileSubset(schema, formats);

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every tool schema the project ships: the imported BFCL suites, the inline suites and the mock servers. */
function bundledSchemas(): JSONSchema[] {
  const out: JSONSchema[] = [...excelTools, ...economistTools, ...coderTools].map((t) => t.inputSchema);
  const files = [
    ...readdirSync(join(ROOT, 'suites', 'bfcl'))
      .filter((f) => f.endsWith('.yaml') && !f.includes('config'))
      .map((f) => join(ROOT, 'suites', 'bfcl', f)),
    ...['excel', 'economist', 'coder'].map((s) => join(ROOT, 'suites', `${s}.yaml`)),
  ];
  for (const file of files) {
    const suite = wholeSuite(loadSuite(file));
    for (const t of suite.tools ?? []) out.push(t.inputSchema);
    for (const c of suite.cases) for (const t of c.functions ?? []) out.push(t.inputSchema);
  }
  return out;
}

const POOL: unknown[] = ['x', '', 'metric', 1, 0, -3, 1.5, 1e21, true, false, null, [], [1, 'a'], {}, { a: 1 }];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value that should satisfy `schema` (first enum value, first type, every property). */
function sample(schema: unknown): unknown {
  if (!isObject(schema)) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 's';
    case 'integer':
      return 2;
    case 'number':
      return 2.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [sample(schema.items), sample(schema.items)];
    default: {
      const out: Record<string, unknown> = {};
      if (isObject(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) out[k] = sample(v);
      return out;
    }
  }
}

/** The sample, then the sample with each value replaced by every pool value, each key removed, a key added. */
function variants(value: unknown): unknown[] {
  const out: unknown[] = [value, ...POOL];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      for (const v of variants(item).slice(1, 12)) out.push(value.map((x, j) => (j === i ? v : x)));
    });
    out.push([...value, ...value, ...value]);
  } else if (isObject(value)) {
    for (const [k, item] of Object.entries(value)) {
      for (const v of variants(item).slice(1)) out.push({ ...value, [k]: v });
      const { [k]: _, ...rest } = value;
      out.push(rest);
    }
    out.push({ ...value, zz_extra: 1, 'a/b~c': 'x' });
  }
  return out;
}

describe('schema subset validator', () => {
  const schemas = bundledSchemas();

  it('handles almost every bundled schema, so ajv compiles only the rare rest', () => {
    const handled = schemas.filter((s) => subset(s) !== null).length;
    expect(schemas.length).toBeGreaterThan(1500);
    // the rest: mock-server schemas with `pattern` or `minProperties`
    expect(schemas.length - handled).toBeLessThan(10);
  });

  it('gives exactly what ajv gives (errors, messages, paths, order) on every bundled schema', () => {
    let compared = 0;
    let failing = 0;
    for (const schema of schemas) {
      if (!subset(schema)) continue;
      for (const value of variants(sample(schema)).slice(0, 60)) {
        const fast = checkAgainstSchema(schema, value);
        const reference = checkWithAjv(schema, value);
        if (fast.ok === false) failing++;
        // toEqual on 40,000 pairs is slow: compare the JSON, let expect explain a difference
        if (JSON.stringify(fast) !== JSON.stringify(reference)) {
          expect({ schema, value, result: fast }).toEqual({ schema, value, result: reference });
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(40_000);
    expect(failing).toBeGreaterThan(compared / 3);
  });

  it('matches ajv on hand-made edge cases and leaves unsupported schemas to ajv', () => {
    const cases: Array<[JSONSchema, unknown[]]> = [
      [
        { type: 'object', enum: [{ a: 1 }], properties: { a: { type: 'integer', minimum: 0, maximum: 3 } } },
        [{ a: 1 }, { a: 4 }, { a: -1.5 }, [], null, { a: Number.NaN }],
      ],
      [{ type: ['integer', 'null'] }, [1, 1.5, null, '1', Number.NaN, Number.POSITIVE_INFINITY]],
      [{ type: ['array', 'object'] }, [[], {}, null, 1]],
      [{ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }, [0, 0.5, 1, 'x']],
      [
        { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b'] } },
        [[], ['a'], ['a', 'c', 1], 'a'],
      ],
      [
        { type: 'object', required: ['constructor', 'x'], properties: { toString: { type: 'string' } } },
        [{}, { x: 1 }, { x: 1, constructor: 2 }],
      ],
      [
        { type: 'object', additionalProperties: { type: 'string' }, properties: { n: { type: 'number' } } },
        [{ n: 1, s: 's', t: 2 }],
      ],
      [{ enum: ['a', 1, null] }, ['a', 1, null, 'b', Number.NaN]],
      [{ type: 'string', enum: ['a'] }, [1, 'b', 'a']],
      [{ type: 'string', format: 'date' }, ['2024-01-31', '2024-02-30', 'x', 5]],
      [{ format: 'date', minimum: 1 }, ['x', 5, 0, null]],
      [{ type: ['string', 'null'], format: 'email' }, ['a@b.co', 'nope', null, 1]],
      [{ type: 'number', format: 'int32' }, [1, 2 ** 40, 1.5, 'x']],
    ];
    for (const [schema, values] of cases) {
      expect(subset(schema)).not.toBeNull();
      for (const value of values) expect(checkAgainstSchema(schema, value)).toEqual(checkWithAjv(schema, value));
    }
    for (const schema of [
      { type: 'string', format: 'no-such-format' },
      { anyOf: [{ type: 'string' }] },
      { type: 'objekt' },
      { type: [] },
      { required: 'x' },
      { enum: [] },
      { properties: { a: true } },
      { description: 1 },
    ] as JSONSchema[]) {
      expect(subset(schema)).toBeNull();
      // (ajv words a compile error differently the second time, so only the outcome is compared)
      expect(checkAgainstSchema(schema, 'x').ok).toEqual(checkWithAjv(schema, 'x').ok);
    }
  });
});
