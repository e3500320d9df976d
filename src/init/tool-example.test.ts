import { describe, expect, it } from 'vitest';
import { answerArgs } from '../config/expected-answer.js';
import type { JSONSchema } from '../contracts/json-schema.js';
import { checkWithAjv } from '../graders/schema-check.js';
import { catalogExamples, toolExample } from './tool-example.js';

const tool = (inputSchema: JSONSchema, name = 't') => ({ name, server: 's', inputSchema });

describe('toolExample', () => {
  it('writes nested arrays inside objects in the allowed-value form the oracle reads back (server-memory)', () => {
    // create_entities of @modelcontextprotocol/server-memory: an array of strings inside an array of objects
    const schema = {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              entityType: { type: 'string' },
              observations: { type: 'array', items: { type: 'string' } },
            },
            required: ['name', 'entityType', 'observations'],
          },
        },
      },
      required: ['entities'],
    };
    const example = toolExample(tool(schema));
    if (!example.ok) throw new Error(example.reason);
    expect(example.expected).toEqual({
      entities: [
        [{ name: ['example name'], entityType: ['example entityType'], observations: [['example observation']] }],
      ],
    });
    // what sim:oracle calls with is the example, and the schema accepts it
    expect(answerArgs({ tool: 't', args: example.expected })).toEqual(example.args);
    expect(checkWithAjv(schema, example.args)).toEqual({ ok: true });
  });

  it('tries the alternatives a schema offers until ajv accepts the value', () => {
    const schema = {
      type: 'object',
      properties: {
        id: {
          anyOf: [
            { type: 'string', minLength: 5, maxLength: 2 },
            { type: 'integer', minimum: 3 },
          ],
        },
        kind: { type: 'string', enum: ['a', 'bb'], pattern: '^b' },
        start_date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        when: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      },
      required: ['id', 'kind', 'start_date', 'when'],
    };
    const example = toolExample(tool(schema));
    // a readable value where one fits the pattern, else one made from the pattern
    expect(example).toMatchObject({
      ok: true,
      args: { id: 3, kind: 'bb', start_date: '2024-01-31', when: '0000-00-00' },
    });
  });

  it('gives up, with the reason, on a schema no value of its own satisfies or a value the suite cannot hold', () => {
    const impossible = toolExample(
      tool({ type: 'object', properties: { a: { type: 'string', minLength: 5, maxLength: 2 } }, required: ['a'] }),
    );
    expect(impossible).toMatchObject({ ok: false, reason: expect.stringMatching(/a must NOT have (more|fewer)/) });
    const empty = toolExample(tool({ type: 'object', properties: { a: { const: '' } }, required: ['a'] }));
    expect(empty).toMatchObject({ ok: false, reason: expect.stringContaining('empty string') });
    const endless = toolExample(
      tool({
        type: 'object',
        $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } }, required: ['child'] } },
        properties: { root: { $ref: '#/$defs/Node' } },
        required: ['root'],
      }),
    );
    expect(endless.ok).toBe(false);
  });

  it("gives a folder tool's path a folder: `.` to read, a new one to create", () => {
    const path = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    expect(toolExample(tool(path, 'list_directory'))).toMatchObject({ args: { path: '.' } });
    expect(toolExample({ ...tool(path, 'create_directory'), annotations: { readOnlyHint: false } })).toMatchObject({
      args: { path: 'example-dir' },
    });
    expect(toolExample(tool(path, 'read_file'))).toMatchObject({ args: { path: 'example.txt' } });
  });

  it('takes the example another tool of the catalog gives for a parameter of the same name, except to create one', () => {
    const sheet = (description: string) => ({
      type: 'object',
      properties: { sheet_name: { type: 'string', description }, start_cell: { type: 'string' } },
      required: ['sheet_name', 'start_cell'],
    });
    const catalog = [
      tool(sheet('Name of the worksheet (e.g. "Sheet1")'), 'read_range'),
      tool(sheet('Worksheet to format'), 'format_range'),
      tool(sheet('Name for the new worksheet'), 'create_worksheet'),
    ];
    const shared = catalogExamples(catalog);
    expect(shared).toEqual(new Map([['sheet_name', 'Sheet1']]));
    const args = catalog.map((t) => {
      const example = toolExample(t, undefined, shared);
      return example.ok ? example.args : example.reason;
    });
    expect(args).toEqual([
      { sheet_name: 'Sheet1', start_cell: 'A1' },
      { sheet_name: 'Sheet1', start_cell: 'A1' },
      // a sheet that exists is no name for a new one
      { sheet_name: 'example sheet_name', start_cell: 'A1' },
    ]);
  });
});
