import { describe, expect, it } from 'vitest';
import { ToolgaugeError } from '../src/errors.js';
import { renderInput } from './fixtures/excel-catalog.js';
import { getRenderer, renderers, resolveTextToolName } from './index.js';

describe('renderer registry', () => {
  it('maps each name to its renderer', () => {
    expect(Object.keys(renderers)).toEqual(['names-only', 'full-details', 'native-functions', 'cached-schemas']);
    for (const [name, r] of Object.entries(renderers)) {
      expect(getRenderer(name)).toBe(r);
      expect(r.name).toBe(name);
      expect(r.render(renderInput()).messages).toHaveLength(1);
    }
  });

  it('rejects unknown names, listing the valid ones', () => {
    for (const name of ['nope', 'toString', '__proto__']) {
      try {
        getRenderer(name);
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
