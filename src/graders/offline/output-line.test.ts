import { describe, expect, it } from 'vitest';
import { readOutputLine, toOutputLine } from './output-line.js';

describe('readOutputLine (fast path) reads every line exactly as the zod schema does', () => {
  const values: unknown[] = [
    { case: 'a', output: 'x' },
    { id: 'a', raw: 'x', model: 'm', category: 'simple', bfcl_valid: true },
    { case: 'a', id: 'b', output: 'x', raw: 'y' },
    { case: 'a', output: '' },
    { case: '', output: 'x' },
    { id: 'a', raw: 'x', model: '' },
    { case: 'a' },
    { output: 'x' },
    { case: 'a', output: null },
    { case: 'a', output: 1 },
    { case: 1, output: 'x' },
    { case: 'a', output: 'x', model: null },
    { case: 'a', output: 'x', tool_calls: [{ name: 'f', arguments: '{}' }] },
    { case: 'a', turns: [{ output: 'x' }] },
    { case: 'a', output: 'x', turns: 'no' },
    ['a'],
    null,
    'line',
  ];
  for (const value of values) {
    it(JSON.stringify(value), () => {
      expect(readOutputLine(value)).toEqual(toOutputLine(value));
    });
  }
});
