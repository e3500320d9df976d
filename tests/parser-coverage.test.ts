import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TextShape } from '../src/contracts/parse.js';
import { shapeLabel } from '../src/parse/format-labels.js';
import { ROOT } from './cli-helpers.js';

/**
 * docs/validity.md's coverage table lists every tool parser the serving stacks register (vLLM, SGLang, llama.cpp,
 * ollama). A row is read as a `via` and names its tests: a test file and a describe() title prefix. This test fails
 * when a row names a `via` the parser does not have, or tests that are not there: the file must hold describe()
 * blocks whose titles start with the prefix, at least 8 tests in them, and at least 2 in one of them whose title says
 * "near miss". A row that is not read must say why.
 */
interface Row {
  project: string;
  parser: string;
  readAs: string;
  tests: string;
}

const PROJECTS = ['vLLM', 'SGLang', 'llama.cpp', 'ollama'];
const MIN_TESTS = 8;
const MIN_NEAR_MISSES = 2;

function coverageRows(): Row[] {
  const doc = readFileSync(join(ROOT, 'docs', 'validity.md'), 'utf8');
  const start = doc.indexOf('<!-- coverage-table -->');
  const end = doc.indexOf('<!-- /coverage-table -->');
  expect(start).toBeGreaterThan(0);
  return doc
    .slice(start, end)
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| project'))
    .map((l) => {
      const cells = l
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim());
      expect(cells, l).toHaveLength(5);
      const [project, parser, , readAs, tests] = cells as [string, string, string, string, string];
      return { project, parser, readAs, tests };
    });
}

/** The test titles of each top-level describe() block of a test file: `it(` and `it.each(` each count once. */
function describeBlocks(file: string): Array<{ title: string; tests: number }> {
  const text = readFileSync(file, 'utf8');
  const starts = [...text.matchAll(/^describe\((['"`])((?:\\.|(?!\1).)*)\1/gm)];
  return starts.map((m, i) => {
    const from = m.index ?? 0;
    const to = starts[i + 1]?.index ?? text.length;
    const body = text.slice(from, to);
    return { title: (m[2] as string).replace(/\\(.)/g, '$1'), tests: body.match(/^\s+it(?:\.each)?\(/gm)?.length ?? 0 };
  });
}

const rows = coverageRows();

describe('docs/validity.md: the coverage table of the serving stacks’ tool parsers', () => {
  it('has rows for each of the four registries', () => {
    for (const project of PROJECTS)
      expect(rows.filter((r) => r.project === project).length, project).toBeGreaterThan(5);
    expect(new Set(rows.map((r) => r.project))).toEqual(new Set(PROJECTS));
    expect(rows.length).toBeGreaterThanOrEqual(140);
  });

  it('names each parser once per project', () => {
    for (const project of PROJECTS) {
      const names = rows.filter((r) => r.project === project).map((r) => r.parser);
      expect(names.length, project).toBe(new Set(names).size);
    }
  });

  it.each(rows.map((r) => [`${r.project} ${r.parser}`, r] as const))('%s', (_label, row) => {
    if (row.readAs.startsWith('not read:')) {
      // says why, and names no tests
      expect(row.readAs.length).toBeGreaterThan('not read: '.length + 10);
      expect(row.tests).toBe('—');
      return;
    }
    const via = /^`([\w-]+)`/.exec(row.readAs)?.[1];
    expect(via, row.readAs).toBeDefined();
    expect(shapeLabel(via as TextShape), `${via} is not a shape the parser reports`).toBeDefined();
    const link = /^`([^`]+)` "([^"]+)"$/.exec(row.tests);
    expect(link, row.tests).not.toBeNull();
    const [, path, prefix] = link as unknown as [string, string, string];
    const file = join(ROOT, path);
    expect(existsSync(file), path).toBe(true);
    const blocks = describeBlocks(file).filter((b) => b.title.startsWith(prefix));
    expect(blocks.length, `${path}: no describe() starts with "${prefix}"`).toBeGreaterThan(0);
    const tests = blocks.reduce((n, b) => n + b.tests, 0);
    expect(tests, `${path} "${prefix}": tests`).toBeGreaterThanOrEqual(MIN_TESTS);
    const nearMisses = blocks.filter((b) => /near[ -]miss/i.test(b.title)).reduce((n, b) => n + b.tests, 0);
    expect(nearMisses, `${path} "${prefix}": near misses`).toBeGreaterThanOrEqual(MIN_NEAR_MISSES);
  });
});
