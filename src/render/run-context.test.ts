import { describe, expect, it } from 'vitest';
import { renderers } from '../../renderers/index.js';
import { catalogOf, excelTools, readCase } from '../../tests/fixtures/excel-catalog.js';
import type { Renderer } from '../contracts/renderer.js';
import type { Strategy } from '../plugins/index.js';
import { RunContext } from './run-context.js';

function counting(renderer: Renderer): { strategy: Strategy; prepared: () => number } {
  let n = 0;
  const strategy: Strategy = {
    label: renderer.name,
    name: renderer.name,
    options: {},
    renderer: {
      ...renderer,
      prepare: (input) => {
        n++;
        return renderer.prepare(input);
      },
    },
  };
  return { strategy, prepared: () => n };
}

describe('RunContext', () => {
  it('prepares a strategy once per catalog and provider, and renders each case from it', () => {
    const context = new RunContext();
    const { strategy, prepared } = counting(renderers['native-functions']);
    const catalog = catalogOf(excelTools);
    const openai = { id: 'openai:m', kind: 'openai' as const };
    const a = context.prepare(strategy, catalog, openai).render(readCase);
    const b = context.prepare(strategy, catalog, openai).render({ ...readCase, id: 'b', prompt: 'other' });
    expect(prepared()).toBe(1);
    expect(b.tools).toBe(a.tools);
    expect(b.messages).toEqual([{ role: 'user', content: 'other' }]);
    context.prepare(strategy, catalog, { id: 'anthropic:m', kind: 'anthropic' });
    context.prepare(strategy, catalogOf(excelTools), openai);
    expect(prepared()).toBe(3);
    // Another run shares nothing.
    new RunContext().prepare(strategy, catalog, openai);
    expect(prepared()).toBe(4);
  });

  it('gives the cases that see the same tools the same catalog, hashed once', () => {
    const context = new RunContext();
    const live = catalogOf(excelTools);
    const first = context.catalogs.view(live, live.tools);
    expect(context.catalogs.view(live, live.tools)).toBe(first);
    expect(first.tools).toBe(live.tools);
    const narrowed = context.catalogs.view(live, live.tools.slice(1));
    expect(narrowed).not.toBe(first);
    expect(narrowed.hash).not.toBe(first.hash);
  });
});
