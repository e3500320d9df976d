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
    for (const file of ['tune.md', 'tune.json', 'tune-input.json', 'cassettes.jsonl', 'tune.html']) {
      expect(existsSync(join(out, file))).toBe(true);
    }
    // full-details and native-functions measure alike for the guesser: the dearer one is set aside on the tie
    const reasons = (r: typeof result) => r.providers[0]!.rounds.flatMap((x) => x.eliminated.map((e) => e.reason));
    expect(reasons(result)).toContain('tied');
    // tieAfter 0: no candidate is set aside on agreement alone, and the race needs more calls
    const strict = await tune({
      suites: ['economist'],
      providers: ['sim:guesser'],
      space,
      seed: 4,
      out: join(dir, 'strict'),
      cwd: dir,
      tieAfter: 0,
      cassettes: join(out, 'cassettes.jsonl'),
    });
    expect(reasons(strict)).not.toContain('tied');
    expect(strict.calls.spent).toBeGreaterThan(result.calls.spent);
  }, 60_000);
});
