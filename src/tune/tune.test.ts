import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testTempDir } from '../../tests/helpers/temp-dirs.js';
import { tune } from './tune.js';

describe('tune() in the library', () => {
  it('races to a recommendation with no callbacks given, and writes tune.md, tune.json and the settings', async () => {
    const dir = testTempDir('tg-tune-lib-');
    const space = join(dir, 'space.yaml');
    writeFileSync(space, 'renderers: [names-only, full-details, native-functions]\n');
    const out = join(dir, 'out');
    const result = await tune({ suites: ['economist'], providers: ['sim:guesser'], space, seed: 4, out, cwd: dir });
    const [guesser] = result.providers;
    expect(guesser?.rounds.length).toBeGreaterThan(0);
    expect(guesser?.stopReason).not.toBe('interrupted');
    expect(guesser?.recommended?.label).not.toBe('names-only');
    expect(result.calls.spent).toBeLessThanOrEqual(result.calls.grid);
    for (const file of ['tune.md', 'tune.json', 'tune-input.json', 'cassettes.jsonl']) {
      expect(existsSync(join(out, file))).toBe(true);
    }
  }, 60_000);
});
