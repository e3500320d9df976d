import { describe, expect, it } from 'vitest';
import { ToolgaugeError } from '../../src/errors.js';
import { excelTools, fullDetailsSystem, makeRequest, simulate } from '../../tests/helpers/simulated-requests.js';
import { personas, simFactory } from './index.js';

describe('simFactory', () => {
  it('creates every persona as a simulated provider', () => {
    expect(simFactory.prefix).toBe('sim');
    for (const name of ['oracle', 'guesser', 'fence-wrapper', 'stopper', 'noisy', 'selector', 'detour']) {
      const p = simFactory.create(name, {}, { env: {} });
      expect(p).toMatchObject({ id: `sim:${name}`, kind: 'sim', simulated: true });
    }
    expect(Object.keys(personas)).toHaveLength(7);
  });

  it('rejects an unknown persona with UNKNOWN_PROVIDER, listing the valid ones', () => {
    try {
      simFactory.create('genius', {}, { env: {} });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ToolgaugeError);
      expect((e as ToolgaugeError).code).toBe('UNKNOWN_PROVIDER');
      expect((e as Error).message).toContain(
        'sim:oracle, sim:guesser, sim:fence-wrapper, sim:stopper, sim:noisy, sim:selector, sim:detour',
      );
    }
    expect(() => simFactory.create('toString', {}, { env: {} })).toThrow(ToolgaugeError);
  });

  it('every persona is deterministic for (seed, case, repeat, turn), and the random ones vary across repeats', async () => {
    const system = fullDetailsSystem(excelTools);
    for (const name of Object.keys(personas)) {
      const p = simFactory.create(name, {}, { env: {} });
      const texts = new Set<string>();
      for (let r = 0; r < 30; r++) {
        const req = makeRequest({ system, caseId: 'det', repeat: r });
        const a = await simulate(p, req);
        expect(await simulate(p, structuredClone(req))).toEqual(a);
        texts.add(a.text);
      }
      if (name === 'fence-wrapper' || name === 'noisy') expect(texts.size).toBeGreaterThan(1);
      if (name === 'oracle' || name === 'stopper') expect(texts.size).toBe(1);
    }
  });

  it('honours stop sequences only when asked, and rejects an aborted signal', async () => {
    const req = { ...makeRequest({ system: fullDetailsSystem(excelTools) }), stop: ['</tool_call>'] };
    const plain = await simulate(simFactory.create('oracle', {}, { env: {} }), req);
    expect(plain.text.endsWith('</tool_call>')).toBe(true);
    const cut = await simulate(simFactory.create('oracle', { honorStop: true }, { env: {} }), req);
    expect(cut.text).toBe(plain.text.slice(0, plain.text.indexOf('</tool_call>')));
    const ac = new AbortController();
    ac.abort();
    await expect(simulate(simFactory.create('oracle', {}, { env: {} }), req, ac.signal)).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});
