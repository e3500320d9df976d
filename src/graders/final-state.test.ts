import { describe, expect, it } from 'vitest';
import type { ObservedState } from '../contracts/state.js';
import type { StateFact, SuiteCase } from '../contracts/suite.js';
import type { Transcript } from '../contracts/transcript.js';
import { finalState } from './final-state.js';
import { mismatch } from './state-match.js';

const grade = (state: StateFact[], observed: ObservedState | undefined) => {
  const transcript: Transcript = { turns: [], finalText: '', stopReason: 'answered' };
  if (observed) transcript.state = observed;
  const c: SuiteCase = { id: 'c', prompt: 'p', expect: { state } };
  return finalState.grade({ case: c, transcript, protocol: 'native', tools: [] });
};

const view = (path: (string | number)[], value: unknown, server = 'economist') => ({
  server,
  path,
  found: true,
  value,
});

describe('state matching', () => {
  it('equals: the same JSON value; object keys in any order, arrays in order, no extra key', () => {
    expect(mismatch({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, 'equals')).toBeUndefined();
    expect(mismatch([1, 2], [2, 1], 'equals')).toBe('at [0]: 2, expected 1');
    expect(mismatch({ a: 1 }, { a: 1, b: 2 }, 'equals')).toBe('at b: 2, expected nothing');
    expect(mismatch(0.3, '0.3', 'equals')).toBe('"0.3", expected 0.3');
    expect(mismatch(null, null, 'equals')).toBeUndefined();
  });

  it('subset: keys given are there, items match distinct items in any order, strings are contained', () => {
    expect(mismatch({ a: 1 }, { a: 1, b: 2 }, 'subset')).toBeUndefined();
    expect(mismatch({ a: { x: 1 } }, { a: { x: 1, y: 2 } }, 'subset')).toBeUndefined();
    expect(mismatch({ c: 1 }, { a: 1 }, 'subset')).toBe('at c: missing, expected 1');
    // a greedy pairing would give the first item the fuller element and miss the second
    expect(mismatch([{ a: 1 }, { a: 1, b: 2 }], [{ a: 1, b: 2 }, { a: 1 }], 'subset')).toBeUndefined();
    expect(mismatch([{ a: 1 }, { a: 1 }], [{ a: 1, b: 2 }], 'subset')).toBe(
      'no item matches {"a":1} (expected item 2 of 2)',
    );
    expect(mismatch('return a;', 'x\nreturn a;\n', 'subset')).toBeUndefined();
    expect(mismatch('return a;', 'return b;', 'subset')).toBe('"return b;", expected it to contain "return a;"');
  });

  it('tolerance: numbers within it match, at any depth', () => {
    expect(mismatch(0.3, 0.30000000000000004, 'equals')).toBeDefined();
    expect(mismatch(0.3, 0.30000000000000004, 'equals', 1e-9)).toBeUndefined();
    expect(mismatch({ p: [1.5] }, { p: [1.52] }, 'subset', 0.05)).toBeUndefined();
    expect(mismatch({ p: [1.5] }, { p: [1.6] }, 'subset', 0.05)).toBe(
      'at p: no item matches 1.5 (expected item 1 of 1)',
    );
  });
});

describe('final-state', () => {
  it('holds when every fact holds, naming each', () => {
    const g = grade(
      [
        { path: ['parameters', 'income_tax_rate'], equals: 0.3 },
        { path: ['parameters'], subset: { vat_rate: 0.2 } },
        { server: 'economist', path: ['presets', 'mine'], absent: true },
      ],
      {
        views: [
          view(['parameters', 'income_tax_rate'], 0.3),
          view(['parameters'], { vat_rate: 0.2, income_tax_rate: 0.3 }),
          { server: 'economist', path: ['presets', 'mine'], found: false },
        ],
        probes: [],
      },
    );
    expect(g).toMatchObject({ pass: true, score: 1 });
    expect(g?.reason).toBe(
      'all 3 expected fact(s) held: economist parameters.income_tax_rate = 0.3; economist parameters includes {"vat_rate":0.2}; economist presets.mine is absent',
    );
  });

  it('says which facts did not hold and why: a wrong value, a missing one, an unreadable view, a failed probe', () => {
    const g = grade(
      [
        { path: ['parameters', 'vat_rate'], equals: 0.2 },
        { path: ['presets', 'mine', 'parameters'], subset: { vat_rate: 0.2 } },
        { server: 'files', path: ['x'], equals: 1 },
        { probe: { tool: 'get_parameter', args: { parameter_name: 'vat_rate' } }, path: ['value'], equals: 0.2 },
        { path: ['parameters', 'income_tax_rate'], equals: 0.3, tolerance: 0.01 },
      ],
      {
        views: [
          view(['parameters', 'vat_rate'], 0.1),
          { server: 'economist', path: ['presets', 'mine', 'parameters'], found: false },
          { server: 'files', path: ['x'], found: false, error: "MCP server 'files' publishes no state view" },
          view(['parameters', 'income_tax_rate'], 0.305),
        ],
        probes: [
          {
            server: 'economist',
            tool: 'get_parameter',
            args: { parameter_name: 'vat_rate' },
            result: 'Unknown',
            isError: true,
          },
        ],
      },
    );
    expect(g).toMatchObject({ pass: false, score: 0.2, data: { held: 1, facts: 5 } });
    expect(g?.reason).toBe(
      '1 of 5 expected fact(s) held; not held: economist parameters.vat_rate: 0.1, expected 0.2; ' +
        'economist presets.mine.parameters is missing, expected {"vat_rate":0.2}; ' +
        "files x: MCP server 'files' publishes no state view; " +
        'get_parameter({"parameter_name":"vat_rate"}) → value: the probe failed: "Unknown"',
    );
  });

  it('reads a probe result as JSON, its path into it; and a text result as text', () => {
    const probe = (tool: string, result: string) => ({ server: 's', tool, args: {}, result, isError: false });
    const g = grade(
      [
        { probe: { tool: 'status' }, path: ['sim', 'month'], equals: 12 },
        { probe: { tool: 'cat' }, subset: 'coverage/' },
      ],
      { views: [], probes: [probe('status', '{"sim": {"month": 12}}'), probe('cat', 'dist/\ncoverage/\n')] },
    );
    expect(g?.pass).toBe(true);
  });

  it('does not apply without facts, nor to a transcript whose state was not observed (recorded replies)', () => {
    expect(grade([], { views: [], probes: [] })).toBeNull();
    expect(grade([{ path: ['a'], equals: 1 }], undefined)).toBeNull();
  });
});
