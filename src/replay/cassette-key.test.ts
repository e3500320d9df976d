import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../contracts/model.js';
import { registerSecret } from '../util/redact.js';
import { cassetteKey, cassetteRequest, type KeyedProvider } from './cassette-key.js';
import { describeDifferences, diffJson } from './request-diff.js';

const base: ModelRequest = {
  system: 'You have tools.',
  messages: [{ role: 'user', content: 'Show me the sheets in sales.xlsx.' }],
  protocol: 'xml-tags',
  stop: ['</tool_call>'],
  meta: { caseId: 'mini/metadata', repeat: 0, seed: 1, renderer: 'full-details', turn: 0 },
};
const real: KeyedProvider = {
  id: 'openai:gpt-4o-mini',
  simulated: false,
  options: { temperature: 0, baseURL: 'http://127.0.0.1:1/v1' },
};
const sim: KeyedProvider = { id: 'sim:oracle', simulated: true, options: { latencyMs: 5 } };
const key = (p: KeyedProvider, r: ModelRequest) => cassetteKey(cassetteRequest(p, r));

describe('cassette key', () => {
  it('ignores meta.renderer and transport options; a real provider ignores all of meta', () => {
    const k = key(real, base);
    expect(key(real, { ...base, meta: { ...base.meta, renderer: 'other', repeat: 3, seed: 9 } })).toBe(k);
    expect(key({ ...real, options: { ...real.options, baseURL: 'http://127.0.0.1:2/v1' } }, base)).toBe(k);
    expect(key({ ...real, options: { temperature: 0.7 } }, base)).not.toBe(k);
    expect(key(real, { ...base, stop: [] })).not.toBe(k);
    expect(key({ ...real, id: 'openai:gpt-4o' }, base)).not.toBe(k);
  });

  it('includes seed, case, repeat and turn for simulated providers (they are seeded by them)', () => {
    const k = key(sim, base);
    expect(key(sim, { ...base, meta: { ...base.meta, renderer: 'other' } })).toBe(k);
    expect(key(sim, { ...base, meta: { ...base.meta, seed: 2 } })).not.toBe(k);
    expect(key(sim, { ...base, meta: { ...base.meta, repeat: 1 } })).not.toBe(k);
    expect(cassetteRequest(sim, base).options).toEqual({});
  });

  it('never stores a registered secret', () => {
    registerSecret('sk-unit-secret-998877');
    const stored = cassetteRequest(real, {
      ...base,
      messages: [{ role: 'user', content: 'my key is sk-unit-secret-998877' }],
    });
    expect(JSON.stringify(stored)).not.toContain('sk-unit-secret-998877');
    expect(JSON.stringify(stored)).not.toContain('oracle');
  });
});

describe('request diff', () => {
  it('names the path of the first differences and cuts strings around them', () => {
    const a = cassetteRequest(real, base);
    const b = cassetteRequest(real, {
      ...base,
      messages: [...base.messages, { role: 'assistant', content: 'ok' }],
      system: 'You have many tools.',
    });
    const diffs = diffJson(a, b);
    expect(diffs.map((d) => d.path)).toEqual(['messages[1]', 'system']);
    expect(describeDifferences(diffs)).toContain('system: recorded "You have tools.", now "You have many tools."');
  });
});
