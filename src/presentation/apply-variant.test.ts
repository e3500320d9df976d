import { describe, expect, it } from 'vitest';
import type { Catalog, ToolDef } from '../contracts/tool.js';
import { hashOf } from '../util/canonical-json.js';
import { applyVariant, drawDistractors, type ResolvedVariant } from './apply-variant.js';

const tool = (name: string, server = 'a', extra: Partial<ToolDef> = {}): ToolDef => ({
  name,
  server,
  description: `${name} does things`,
  inputSchema: {
    type: 'object',
    properties: {
      description: { type: 'string', description: 'a parameter called description', default: 'x' },
      mode: { type: 'string', enum: ['fast', 'slow'], description: 'how' },
      nested: { type: 'object', properties: { deep: { type: 'string', description: 'deep one' } } },
    },
    required: ['description'],
  },
  ...extra,
});

const catalog = (tools: ToolDef[]): Catalog => ({ tools, source: 'live', hash: hashOf(tools) });
const pool = Array.from({ length: 30 }, (_, i) => tool(`extra_${String(i).padStart(2, '0')}`, 'pool'));
type Spec = Omit<ResolvedVariant['variant']['spec'], 'name'>;
const variant = (spec: Spec, extra: Partial<ResolvedVariant> = {}): ResolvedVariant => ({
  variant: { name: 'v', base: 'v', spec: { name: 'v', ...spec } },
  pool,
  ...extra,
});

describe('catalog variants', () => {
  it('distractors: a larger count keeps every tool of a smaller one, marked, never a name the suite has', () => {
    const taken = new Set(['extra_03', 'extra_07']);
    const ten = drawDistractors(pool, 10, 1, taken, 'v').map((t) => t.name);
    const twenty = drawDistractors(pool, 20, 1, taken, 'v').map((t) => t.name);
    expect(twenty.slice(0, 10)).toEqual(ten);
    expect(ten.some((n) => taken.has(n))).toBe(false);
    expect(new Set(twenty).size).toBe(20);
    expect(drawDistractors(pool, 20, 2, taken, 'v').map((t) => t.name)).not.toEqual(twenty);
    expect(() => drawDistractors(pool, 29, 1, taken, 'v')).toThrow(/offer only 28 tools/);
    const view = applyVariant(catalog([tool('read')]), variant({ distractors: { from: ['x'], count: 5 } }), new Set());
    expect(view.catalog.tools).toHaveLength(6);
    expect(view.tools.filter((t) => t.distractor)).toHaveLength(5);
    expect(view.catalog.ordered).toBeUndefined();
  });

  it('strip removes descriptions, parameter descriptions, enums and defaults, never a parameter so named', () => {
    const c = catalog([tool('read')]);
    const view = applyVariant(
      c,
      variant({ strip: ['descriptions', 'parameter-descriptions', 'enums', 'defaults'] }),
      new Set(),
    );
    const shown = view.catalog.tools[0] as ToolDef;
    expect(shown.description).toBeUndefined();
    const props = shown.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(props)).toEqual(['description', 'mode', 'nested']);
    expect(props.description).toEqual({ type: 'string' });
    expect(props.mode).toEqual({ type: 'string' });
    expect(((props.nested as Record<string, unknown>).properties as Record<string, unknown>).deep).toEqual({
      type: 'string',
    });
    // what calls are graded against keeps the served schema
    expect(view.tools[0]).toBe(c.tools[0]);
    expect(view.catalog.hash).not.toBe(c.hash);
  });

  it('overrides may add example inputs after the description, where every renderer shows it', () => {
    const view = applyVariant(
      catalog([tool('read')]),
      variant({}, { overrides: { read: { examples: [{ description: 'x', mode: 'fast' }] } } }),
      new Set(),
    );
    expect(view.catalog.tools[0]?.description).toBe(
      'read does things\nExample input: {"description":"x","mode":"fast"}',
    );
  });

  it('truncate cuts descriptions with an ellipsis; overrides replace tool and parameter descriptions', () => {
    const overrides = {
      read: { description: 'Reads a sheet.', parameters: { mode: 'Fast or slow', 'nested.deep': 'Deeper' } },
      'b/read': { description: 'The other server' },
    };
    const view = applyVariant(
      catalog([tool('read'), tool('read', 'b'), tool('write')]),
      variant({ truncate: 6 }, { overrides }),
      new Set(),
    );
    const [a, b, w] = view.catalog.tools as [ToolDef, ToolDef, ToolDef];
    expect(a.description).toBe('Reads…');
    expect(b.description).toBe('The o…');
    expect(w.description).toBe('write…');
    const props = a.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.mode?.description).toBe('Fast …');
    expect(
      ((props.nested as Record<string, unknown>).properties as Record<string, Record<string, unknown>>).deep
        ?.description,
    ).toBe('Deeper');
  });

  it('order: alphabetical and shuffled (seeded) set the catalog ordered; as-listed keeps the servers order', () => {
    const tools = ['delta', 'alpha', 'charlie', 'bravo', 'echo'].map((n) => tool(n));
    const names = (spec: Spec) =>
      applyVariant(catalog(tools), variant(spec), new Set()).catalog.tools.map((t) => t.name);
    expect(names({ order: 'alphabetical' })).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    expect(names({ order: 'as-listed' })).toEqual(['delta', 'alpha', 'charlie', 'bravo', 'echo']);
    const shuffled = names({ order: 'shuffled', seed: 3 });
    expect(shuffled).toEqual(names({ order: 'shuffled', seed: 3 }));
    expect([...shuffled].sort()).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    expect(names({ order: 'shuffled', seed: 4 })).not.toEqual(shuffled);
    expect(applyVariant(catalog(tools), variant({ order: 'as-listed' }), new Set()).catalog.ordered).toBe(true);
  });
});
