import { describe, expect, it } from 'vitest';
import { runsWith } from './strategy-providers.js';

describe('a strategy that names its providers', () => {
  it('runs with the providers named, by label or glob; one that names none runs with every provider', () => {
    const only = { providers: ['sim:oracle', 'openai:*'] };
    expect(runsWith(only, 'sim:oracle')).toBe(true);
    expect(runsWith(only, 'openai:gpt-4o-mini')).toBe(true);
    expect(runsWith(only, 'sim:selector')).toBe(false);
    expect(runsWith({}, 'anything:at-all')).toBe(true);
    // a label with glob characters is matched as written too
    expect(runsWith({ providers: ['my[model]'] }, 'my[model]')).toBe(true);
  });
});
