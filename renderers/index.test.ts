import { describe, expect, it } from 'vitest';
import { ToolgaugeError } from '../src/errors.js';
import { resolveRenderer } from '../src/plugins/index.js';
import { renderInput } from '../tests/fixtures/excel-catalog.js';
import { renderOnce } from '../tests/helpers/render-once.js';
import { renderers, resolveTextToolName } from './index.js';

describe('renderer registry', () => {
  it('maps each name to its renderer, through the one renderer registry', async () => {
    expect(Object.keys(renderers)).toEqual([
      'names-only',
      'full-details',
      'native-functions',
      'cached-schemas',
      'tool-search',
      'cline-xml',
      'hermes',
      'claude-code',
    ]);
    for (const [name, r] of Object.entries(renderers)) {
      expect(await resolveRenderer(name, '.', () => 'test')).toBe(r);
      expect(r.name).toBe(name);
      expect(renderOnce(r, renderInput()).messages).toHaveLength(1);
    }
  });

  it('a prepared renderer renders each case as if alone: equal to a fresh prepare', () => {
    const shared = renderInput();
    const other = { ...shared.case, id: 'other', prompt: 'Something else', system: 'Case-specific system text.' };
    for (const kind of ['openai', 'anthropic', 'sim'] as const) {
      for (const [name, r] of Object.entries(renderers)) {
        const options = name === 'cached-schemas' ? { protocol: 'native' } : {};
        const provider = { id: `${kind}:m`, kind };
        const prepared = r.prepare({ catalog: shared.catalog, options, provider });
        const first = prepared.render(shared.case);
        const second = prepared.render(other);
        const fresh = renderOnce(r, {
          ...shared,
          case: other,
          options: { ...options },
          provider,
          catalog: renderInput().catalog,
        });
        expect(second).toEqual(fresh);
        expect(second.system).toContain('Case-specific system text.');
        expect(first.system).not.toContain('Case-specific system text.');
        expect(second.messages).toEqual([{ role: 'user', content: 'Something else' }]);
        // Native definitions are built once, when prepared, and shared by the cases.
        if (first.tools) expect(second.tools).toBe(first.tools);
      }
    }
  });

  it('rejects unknown names, listing the valid ones', async () => {
    for (const name of ['nope', 'toString', '__proto__']) {
      try {
        await resolveRenderer(name, '.', () => 'test');
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ToolgaugeError);
        expect((e as ToolgaugeError).code).toBe('UNKNOWN_RENDERER');
        expect((e as Error).message).toContain('names-only, full-details, native-functions, cached-schemas');
      }
    }
  });

  it('resolves text-protocol names back to server and tool', () => {
    const tools = [
      { server: 'a', name: 'read', inputSchema: {} },
      { server: 'b', name: 'read', inputSchema: {} },
      { server: 'b', name: 'write', inputSchema: {} },
    ];
    expect(resolveTextToolName(tools, 'b__read')).toEqual({ server: 'b', tool: 'read' });
    expect(resolveTextToolName(tools, 'write')).toEqual({ server: 'b', tool: 'write' });
    expect(resolveTextToolName(tools, 'read')).toBeUndefined();
  });
});
