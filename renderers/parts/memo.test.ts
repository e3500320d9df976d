import { describe, expect, it } from 'vitest';
import { memoPerCatalog } from './memo.js';

describe('memoPerCatalog', () => {
  it('builds once per (tools, options, variant) by identity, and never answers for another key', () => {
    const memo = memoPerCatalog<string>();
    let builds = 0;
    const build = (label: string) => () => {
      builds++;
      return label;
    };
    const tools = [{ name: 'a' }];
    const options = { noFences: true };
    expect(memo(tools, options, 'openai', build('first'))).toBe('first');
    expect(memo(tools, options, 'openai', build('second'))).toBe('first');
    expect(builds).toBe(1);
    // An equal but distinct array or options object, another variant, no options: each is its own entry.
    expect(memo([{ name: 'a' }], options, 'openai', build('copy'))).toBe('copy');
    expect(memo(tools, { noFences: true }, 'openai', build('other-options'))).toBe('other-options');
    expect(memo(tools, options, 'anthropic', build('other-variant'))).toBe('other-variant');
    expect(memo(tools, undefined, 'openai', build('none'))).toBe('none');
    expect(memo(tools, undefined, 'openai', build('none-again'))).toBe('none');
    expect(builds).toBe(5);
  });

  it('remembers undefined results too', () => {
    const memo = memoPerCatalog<string | undefined>();
    let builds = 0;
    const tools: object[] = [];
    for (let i = 0; i < 3; i++)
      memo(tools, undefined, '', () => {
        builds++;
        return undefined;
      });
    expect(builds).toBe(1);
  });
});
