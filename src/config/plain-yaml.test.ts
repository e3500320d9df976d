import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { located, yamlFiles } from '../../tests/helpers/yaml-corpus.js';
import { NOT_PLAIN, parsePlainYaml } from './plain-yaml.js';

const ROOT = join(import.meta.dirname, '../..');

/** The plain parser gives the located parser's data, or steps aside. True when it gave data. */
function agrees(text: string): boolean {
  const plain = parsePlainYaml(text);
  if (plain === NOT_PLAIN) return false;
  const want = located(text);
  expect(want, `the plain parser accepted what the located parser refuses:\n${text}`).toBeDefined();
  expect(plain, text).toEqual(want?.data);
  return true;
}

// Strings that sit on the edges of the subset: indicators, comments, colons, quotes, numbers and words like them.
const tricky = fc.constantFrom(
  'Paris',
  'a b',
  'x: y',
  'x:y',
  'a #b',
  'a#b',
  '#c',
  '- x',
  '-x',
  '? q',
  '"q"',
  "'q'",
  "it's",
  'say "hi"',
  '[a]',
  '{a}',
  'a, b',
  '&a',
  '*a',
  '!t',
  '|',
  '>',
  '%',
  '@',
  '`',
  '',
  ' lead',
  'trail ',
  'null',
  '~',
  'true',
  'False',
  'yes',
  'off',
  '0',
  '-0',
  '12',
  '012',
  '0x1F',
  '0o17',
  '1e3',
  '1.5',
  '.5',
  '1.',
  '+1',
  '.inf',
  '.nan',
  '1_000',
  '2001-12-14',
  '12:30',
  'é ü 名称',
  'tab\there',
  'back\\slash',
  'new\nline',
  '°C',
  '<<',
  '__proto__',
);
const key = fc.oneof(tricky, fc.constantFrom('id', 'prompt', 'expect', 'calls', 'tool', 'args', 'city', 'a b', '1'));
const scalar = fc.oneof(
  tricky,
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;

describe('parsePlainYaml', () => {
  it("gives the located parser's data for the repository's YAML files, or steps aside", () => {
    const files = ['suites', 'examples', 'tests/fixtures'].flatMap((d) => yamlFiles(join(ROOT, d)));
    let plain = 0;
    for (const file of files) if (agrees(readFileSync(file, 'utf8'))) plain++;
    expect(plain).toBeGreaterThan(5);
  });

  it('agrees with the located parser on generated documents in every style the yaml and js-yaml writers use', () => {
    const styles: ((v: unknown) => string)[] = [
      (v) => stringify(v),
      (v) => stringify(v, { indentSeq: false }),
      (v) => stringify(v, { collectionStyle: 'flow' }),
      (v) => stringify(v, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' }),
      (v) => stringify(v, { defaultStringType: 'QUOTE_SINGLE' }),
      (v) => dump(v),
      (v) => dump(v, { flowLevel: 1 }),
    ];
    let plain = 0;
    let total = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), fc.nat(styles.length - 1), (v, s) => {
        let text: string;
        try {
          text = styles[s]!(v);
        } catch {
          return; // a value a writer refuses
        }
        total++;
        if (agrees(text)) plain++;
      }),
      { numRuns: 3_000 },
    );
    // Many generated documents are in the subset even with these strings (otherwise this would test little).
    expect(plain / total).toBeGreaterThan(0.1);
  });

  it('reads nearly every document of ordinary words and numbers written by the yaml package', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 _.,()?]{0,15}[A-Za-z0-9)?]$/);
    const ordinary = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        word,
        fc.integer({ min: -1e6, max: 1e6 }),
        fc.boolean(),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/), tie('v'), { maxKeys: 4 }),
      ),
    })).v;
    let plain = 0;
    let total = 0;
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/), ordinary, { minKeys: 1 }), (v) => {
        total++;
        if (agrees(stringify(v))) plain++;
      }),
      { numRuns: 1_000 },
    );
    expect(plain / total).toBeGreaterThan(0.9);
  });

  it('steps aside for what is outside the subset', () => {
    for (const text of [
      'a: |\n  x\n',
      'a: >-\n  x\n',
      'a: "x\n  y"\n',
      'a: x\n  y\n',
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      '? a\n: b\n',
      'a: 1\na: 2\n',
      '---\na: 1\n',
      '%YAML 1.2\n---\na: 1\n',
      'a: [1,\n  2]\n',
      'a: 0x1F\n',
      'a: 1e3\n',
      'a: "\\x41"\n',
      'a:\tb\n\tc: d\n',
      '\ufeffa: 1\n',
      'a: b: c\n',
      `${'k'.repeat(1100)}: 1\n`,
      '',
    ])
      expect(parsePlainYaml(text), text).toBe(NOT_PLAIN);
  });

  it('reads a suite in the plain subset, comments and blank lines included', () => {
    const text = [
      '# a suite',
      'name: s  # its name',
      'tools:',
      '  - name: t',
      '    inputSchema: { type: object, properties: { city: { type: string } } }',
      'cases:',
      '',
      '- id: "q\\u00e91"',
      '  prompt: What is the weather in Paris? (question 1)',
      '  expect:',
      '    calls:',
      '      - tool: t',
      "        args: { city: [Paris, ''] }",
      '    answer_mentions: [Sunny]',
      '  repeat: 3',
      '  weight: -1.25',
      '  results:',
      '    t: Sunny, 21 °C',
      '-',
      '  id: q2',
      '  tags: []',
      '  meta: {}',
      '  empty:',
    ].join('\r\n');
    expect(agrees(text)).toBe(true);
  });
});
