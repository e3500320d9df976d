import { describe, expect, it } from 'vitest';
import { ToolgaugeError } from '../errors.js';
import { resolveGraders, resolveStrategies } from './index.js';

const where = () => 'toolgauge.config.yaml:3:5: renderers[0]';

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return e instanceof ToolgaugeError ? e.code : `not a ToolgaugeError: ${String(e)}`;
  }
}

describe('registry names in a config', () => {
  it('names like Object.prototype members are unknown renderers and graders, not inherited functions', async () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(await codeOf(resolveStrategies([name], process.cwd(), where))).toBe('UNKNOWN_RENDERER');
      expect(await codeOf(resolveGraders([name], process.cwd(), where))).toBe('UNKNOWN_GRADER');
    }
    const [strategy] = await resolveStrategies(['full-details'], process.cwd(), where);
    expect(strategy?.renderer.name).toBe('full-details');
    expect((await resolveGraders(['parseable'], process.cwd(), where))[0]?.name).toBe('parseable');
  });
});
