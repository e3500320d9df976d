import { describe, expect, it } from 'vitest';
import { applySweepFlags, expandVariant, parseSweepFlag } from './variant-sweep.js';

describe('sweeps', () => {
  it('a swept variant is one concrete variant per point, named by its values', () => {
    const points = expandVariant(
      {
        name: 'crowded',
        distractors: { from: ['coder'], count: 5 },
        sweep: { 'distractors.count': [0, 10], truncate: [40] },
      },
      'variants[0]',
    );
    expect(points.map((p) => p.name)).toEqual([
      'crowded[distractors.count=0,truncate=40]',
      'crowded[distractors.count=10,truncate=40]',
    ]);
    expect(points[1]?.spec).toEqual({ name: 'crowded', distractors: { from: ['coder'], count: 10 }, truncate: 40 });
    expect(points[1]?.sweep).toEqual({ 'distractors.count': 10, truncate: 40 });
    expect(points[0]?.base).toBe('crowded');
  });

  it('refuses a field that is not numeric and a value the field does not take', () => {
    expect(() => expandVariant({ name: 'x', sweep: { order: [1] } }, 'variants[2]')).toThrow(
      /variants\[2\]: sweep of 'order': not a numeric variant field; sweepable: distractors.count/,
    );
    expect(() =>
      expandVariant(
        { name: 'x', distractors: { from: ['coder'], count: 1 }, sweep: { 'distractors.count': [-1] } },
        'v',
      ),
    ).toThrow(/x\[distractors.count=-1\]: distractors.count/);
    expect(() => expandVariant({ name: 'x', sweep: { 'distractors.count': [3] } }, 'v')).toThrow(/distractors.from/);
  });

  it('--sweep: FIELD=values, optionally prefixed by a variant; made on a new variant when none is in play', () => {
    expect(parseSweepFlag('distractors.count=0,10, 25', [])).toEqual({
      field: 'distractors.count',
      values: [0, 10, 25],
    });
    expect(parseSweepFlag('crowded.truncate=40', ['crowded'])).toEqual({
      variant: 'crowded',
      field: 'truncate',
      values: [40],
    });
    expect(() => parseSweepFlag('distractors.count=a', [])).toThrow(/write FIELD=v1,v2/);
    expect(() => parseSweepFlag('order=1', [])).toThrow(/'order' is not a numeric variant field/);
    const made = applySweepFlags([], ['none'], [{ field: 'truncate', values: [10, 20] }]);
    expect(made).toEqual({ variants: [{ name: 'sweep', sweep: { truncate: [10, 20] } }], inPlay: ['none', 'sweep'] });
    const onOne = applySweepFlags(
      [{ name: 'a' }, { name: 'b' }],
      ['a', 'b'],
      [{ variant: 'b', field: 'truncate', values: [5] }],
    );
    expect(onOne.variants).toEqual([{ name: 'a' }, { name: 'b', sweep: { truncate: [5] } }]);
  });
});
