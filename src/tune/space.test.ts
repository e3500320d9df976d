import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testTempDir } from '../../tests/helpers/temp-dirs.js';
import { DEFAULT_SPACE } from './default-space.js';
import { entryLabel, expandSpace, loadSpace, SpaceSchema } from './space.js';

describe('the search space', () => {
  it('expands each grid into every combination of its values, fixed options kept, variants left to the strategies', () => {
    const space = SpaceSchema.parse({
      renderers: [
        'names-only',
        {
          name: 'full-details',
          options: { examples: true },
          grid: { protocol: ['xml-tags', 'json'], noFences: [true, false] },
        },
        { name: 'tool-search', grid: { k: [3, 10] }, variants: ['none', 'crowded'] },
      ],
    });
    const { entries, at } = expandSpace(space);
    expect(entries.map(entryLabel)).toEqual([
      'names-only',
      'full-details(examples=true,noFences=true,protocol=xml-tags)',
      'full-details(examples=true,noFences=false,protocol=xml-tags)',
      'full-details(examples=true,noFences=true,protocol=json)',
      'full-details(examples=true,noFences=false,protocol=json)',
      'tool-search(k=3)',
      'tool-search(k=10)',
    ]);
    expect(at).toEqual([0, 1, 1, 1, 1, 2, 2]);
    expect(entries[5]).toEqual({ name: 'tool-search', options: { k: 3 }, variants: ['none', 'crowded'] });
  });

  it('defaults to the built-in renderers with their key options and no distractors', () => {
    const labels = expandSpace(DEFAULT_SPACE).entries.map(entryLabel);
    expect(labels).toContain('names-only');
    expect(labels).toContain('tool-search(k=5)');
    expect(labels).toHaveLength(12);
    expect(DEFAULT_SPACE.variants).toBeUndefined();
  });

  it('names each problem of a space file at its line and column', () => {
    const dir = testTempDir('tg-space-');
    const file = join(dir, 'space.yaml');
    writeFileSync(
      file,
      [
        'renderers:',
        '  - { name: full-details, options: { protocol: json }, grid: { protocol: [xml-tags] } }',
        '  - { name: tool-search, grid: { k: [] } }',
        'variants:',
        '  - { name: crowded, distractors: { from: [office], count: 5 } }',
        '  - { name: crowded, order: shuffled }',
        '',
      ].join('\n'),
    );
    let message = '';
    try {
      loadSpace(file, dir);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/space\.yaml:3:\d+: renderers\[1\]\.grid\.k: /);
    writeFileSync(
      file,
      [
        'renderers:',
        '  - { name: full-details, options: { protocol: json }, grid: { protocol: [xml-tags] } }',
        '',
      ].join('\n'),
    );
    expect(() => loadSpace(file, dir)).toThrow(
      /space\.yaml:2:\d+: renderers\[0\]\.grid\.protocol: 'protocol' is both a fixed option and a grid option/,
    );
    writeFileSync(
      file,
      [
        'renderers: [native-functions]',
        'variants:',
        '  - { name: a, order: shuffled }',
        '  - { name: a, order: alphabetical }',
        '',
      ].join('\n'),
    );
    expect(() => loadSpace(file, dir)).toThrow(/space\.yaml:4:\d+: variants\[1\]\.name: variant 'a' is defined twice/);
  });
});
