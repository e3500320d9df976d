import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { located, yamlFiles } from '../../tests/helpers/yaml-corpus.js';
import { parseYamlFast, readYaml } from './fast-yaml.js';

const ROOT = join(import.meta.dirname, '../..');

/** Whole-text parse and forced batching (every sequence split) both agree with the located parser, or step aside. */
function expectSameAsLocated(text: string, { mustBeFast = true } = {}): void {
  const want = located(text);
  for (const splitBytes of [Number.POSITIVE_INFINITY, 0]) {
    const fast = parseYamlFast(text, splitBytes);
    if (fast.ok) {
      expect(want, 'the fast parser accepted what the located parser refuses').toBeDefined();
      expect(fast.data).toEqual(want?.data);
    } else if (mustBeFast) {
      expect.fail(`the fast parser refused it (splitBytes ${splitBytes}):\n${text.slice(0, 200)}`);
    }
  }
}

/** A suite in the styles users write: flow and block, block scalars, comments between items, quotes, numbers. */
function styledSuite(n: number, eol = '\n', seqIndent = '  '): string {
  const lines = [
    '# a generated suite',
    'name: styled',
    'tools:',
    '  - name: t',
    '    inputSchema: { type: object }',
    'cases:',
  ];
  lines.push('  # leading comment');
  for (let i = 0; i < n; i++) {
    const p = seqIndent;
    switch (i % 5) {
      case 0:
        lines.push(`${p}- id: c${i}`, `${p}  prompt: "Quoted: #${i}, with \\"escapes\\" \\u00e9"`);
        lines.push(`${p}  expect: { calls: [{ tool: t, args: { n: [${i}, 0x1f, 1.5e3, ""], flag: [true, ~] } }] }`);
        break;
      case 1:
        lines.push(`${p}- id: 'c${i}'`, `${p}  prompt: |`, `${p}    line one`, '', `${p}    # not a comment`);
        lines.push(`${p}    - not an item`, `${p}  tags: [a, b]  # a comment`);
        break;
      case 2:
        lines.push(`${p}-   id: c${i}`, `${p}    prompt: >-`, `${p}      folded`, `${p}      text`);
        lines.push(`${p}    results:`, `${p}      t: plain text, with a comma`);
        break;
      case 3:
        lines.push('', `# comment at column 0 between items ${i}`, `${p}- id: c${i}`);
        lines.push(`${p}  prompt: plain text that`, `${p}    continues on the next line`, `${p}  expect:`);
        lines.push(`${p}    no_call: true`);
        break;
      default:
        lines.push(`${p}-`, `${p}  id: c${i}`, `${p}  prompt: "multi`, `${p}    line quoted"`, `${p}  repeat: -0012`);
    }
  }
  lines.push('renderers:', '- full-details', 'after: { x: 1 }');
  return lines.join(eol) + eol;
}

describe('parseYamlFast', () => {
  it("gives the located parser's data for every YAML file in the repository, and refuses none", () => {
    const files = ['suites', 'examples', 'tests/fixtures'].flatMap((d) => yamlFiles(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (!located(text)) continue;
      expectSameAsLocated(text, { mustBeFast: !/&\w/.test(text) });
    }
  });

  it('gives the same data in batches as whole, in every style users write (LF, CRLF, zero-indented items)', () => {
    for (const text of [styledSuite(1_100), styledSuite(600, '\r\n'), styledSuite(600, '\n', '')]) {
      expectSameAsLocated(text);
      const fast = parseYamlFast(text, 0);
      expect(fast.ok && fast.batches.length).toBeGreaterThan(2);
    }
  });

  it('agrees with the located parser on scalars of the core schema', () => {
    const scalars = ['0o17', '0x1F', '+12', '-0', '1e3', '.5', '.inf', '-.Inf', '.NaN', '012', '~', 'Null', 'TRUE'];
    const more = ['yes', 'off', '2001-12-14', '12:30:45', '1_000', '0b101', '"\\x41\\N"', "'it''s'", '!!str 12', 'a#b'];
    expectSameAsLocated(`${[...scalars, ...more].map((s, i) => `k${i}: ${s}`).join('\n')}\n`);
  });

  it('steps aside (the located parser decides) for aliases, tags it resolves differently, null keys, duplicates', () => {
    const refused = [
      'a: &x [1]\nb: *x\n',
      'a: &x 1\nb: *x\n',
      'k: !!float 1\n',
      '~: x\n',
      'k: 1\nk: 2\n',
      'a: 1\n---\nb: 2\n',
      '',
      'k: [unclosed\n',
    ];
    for (const text of refused) expect(parseYamlFast(text).ok, text).toBe(false);
  });

  it('is not fooled by lines that only look like a top-level sequence', () => {
    // A quoted scalar spanning what looks like `cases:` and an item: the batches or the head fail, so it steps aside.
    const tricky = ['name: "a', 'cases:', '- x', '"', 'cases2:', '  - y', ''].join('\n');
    expectSameAsLocated(tricky, { mustBeFast: false });
    // An anchor in one item and its alias in another.
    const anchored = ['cases:', '  - &a { id: x }', '  - *a', ''].join('\n');
    expect(parseYamlFast(anchored, 0).ok).toBe(false);
    // A sequence that ends at the end of the text with no newline.
    expectSameAsLocated('cases:\n  - a\n  - b');
  });

  it('readYaml gives the data of JSON, of YAML, and of YAML only the located parser reads (an alias)', () => {
    expect(readYaml('{"a": [1]}')).toEqual({ a: [1] });
    expect(readYaml('a: [1]\n')).toEqual({ a: [1] });
    expect(readYaml('a: &x [1]\nb: *x\n')).toEqual({ a: [1], b: [1] });
    expect(() => readYaml('a: [1\n')).toThrow();
  });
});
