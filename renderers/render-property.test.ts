import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JSONSchema } from '../src/contracts/json-schema.js';
import type { ProviderKind } from '../src/contracts/model.js';
import type { ToolDef } from '../src/contracts/tool.js';
import { catalogOf, readCase } from '../tests/fixtures/excel-catalog.js';
import { renderOnce } from '../tests/helpers/render-once.js';
import { renderers } from './index.js';

const DEFS: JSONSchema = {
  Leaf: { type: 'string', description: 'a leaf' },
  Node: { type: 'object', properties: { value: { type: 'integer' }, next: { $ref: '#/$defs/Node' } } },
  Pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
};

const name = fc.oneof(
  fc.stringMatching(/^[a-z_][a-z0-9_]{0,15}$/),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ minLength: 65, maxLength: 200 }),
);

const { schema } = fc.letrec<{ schema: JSONSchema; leaf: JSONSchema; object: JSONSchema }>((tie) => ({
  leaf: fc.oneof(
    fc.record(
      {
        type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'null'),
        description: fc.string({ maxLength: 30 }),
        default: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    ),
    fc.record({ type: fc.constant('string'), enum: fc.array(fc.string(), { minLength: 1, maxLength: 4 }) }),
    fc.constantFrom(
      { $ref: '#/$defs/Leaf' },
      { $ref: '#/$defs/Node' },
      { $ref: '#/definitions/Missing' },
      { $ref: '#/$defs/Pair' },
    ),
  ),
  object: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), tie('schema'), { maxKeys: 4 }).chain((properties) =>
    fc.record({
      type: fc.constant('object'),
      properties: fc.constant(properties),
      required: fc.subarray(Object.keys(properties)),
    }),
  ),
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    tie('object'),
    fc.record({ type: fc.constant('array'), items: tie('schema') }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
  ),
}));

const topLevel = fc
  .record({
    properties: fc.dictionary(name, schema, { maxKeys: 6 }),
    extraRequired: fc.array(name, { maxLength: 2 }),
    withDefs: fc.boolean(),
  })
  .chain(({ properties, extraRequired, withDefs }) =>
    fc.subarray(Object.keys(properties)).map((req): JSONSchema => {
      const s: JSONSchema = { type: 'object', properties, required: [...req, ...extraRequired] };
      if (withDefs) s.$defs = DEFS;
      return s;
    }),
  );

const tool: fc.Arbitrary<ToolDef> = fc.record(
  {
    server: fc.constantFrom('excel', 'coder', 'a.b'),
    name,
    description: fc.string({ maxLength: 40 }),
    inputSchema: topLevel,
  },
  { requiredKeys: ['server', 'name', 'inputSchema'] },
);

const KINDS: ProviderKind[] = ['openai', 'anthropic', 'ollama', 'openai-compatible', 'sim'];

function requiredOf(t: ToolDef): string[] {
  return Array.isArray(t.inputSchema.required) ? (t.inputSchema.required as string[]) : [];
}

describe('renderers on generated JSON Schemas', () => {
  it('render without throwing and show every required parameter', () => {
    fc.assert(
      // One server never lists two tools of the same name (MCP tool names are unique per server); the check
      // below finds each rendered tool's source by (server, name).
      fc.property(
        fc.uniqueArray(tool, { maxLength: 4, selector: (t) => `${t.server}\u0000${t.name}` }),
        fc.constantFrom(...KINDS),
        (tools, kind) => {
          const input = { catalog: catalogOf(tools), case: readCase, provider: { id: `${kind}:m`, kind } };
          const full = renderOnce(renderers['full-details'], { ...input, options: { examples: true } });
          const cached = renderOnce(renderers['cached-schemas'], { ...input, options: {} });
          const native = renderOnce(renderers['native-functions'], { ...input, options: {} });
          renderOnce(renderers['names-only'], { ...input, options: {} });
          for (const t of tools) {
            for (const p of requiredOf(t)) {
              expect(full.system).toContain(`- ${p} (`);
              expect(cached.system).toContain(`${p}: `);
            }
          }
          const max = kind === 'anthropic' ? 128 : 64;
          const names = new Set<string>();
          for (const rt of native.tools ?? []) {
            expect(rt.name).toMatch(new RegExp(`^[a-zA-Z0-9_-]{1,${max}}$`));
            names.add(rt.name);
            const source = tools.find((t) => t.server === rt.target.server && t.name === rt.target.tool);
            expect(source).toBeDefined();
            const params = rt.parameters as { type: string; properties: object; required?: string[] };
            expect(params.type).toBe('object');
            for (const p of requiredOf(source!)) {
              expect(params.required).toContain(p);
              expect(Object.keys(params.properties)).toContain(p);
            }
            JSON.stringify(rt.parameters);
          }
          expect(names.size).toBe(native.tools?.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});
