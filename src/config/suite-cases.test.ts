import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isToolgaugeError } from '../errors.js';
import { selectCases } from './load-config.js';
import { loadSuite, wholeSuite } from './load-suite.js';
import { FileCases } from './suite-cases.js';

const dir = mkdtempSync(join(tmpdir(), 'tg-suite-cases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A block-style suite of n cases in varied shapes: some outside the plain subset (block scalars), non-ASCII text. */
function suiteText(n: number): string {
  const out = [
    'name: streamed',
    'tools:',
    '  - name: get_weather',
    '    description: Weather for a city — “quoted”, ünïcode.',
    '    inputSchema: {type: object, properties: {city: {type: string}}, required: [city]}',
    'cases:',
  ];
  for (let i = 0; i < n; i++) {
    out.push(`  - id: c${i}`);
    if (i % 7 === 0) out.push('    prompt: |', `      Weather in Zürich?`, `      (case ${i}, over two lines)`);
    else out.push(`    prompt: "Weather in Paris ☀ #${i}?"`);
    if (i % 3 === 0) out.push('    tags: [third]');
    out.push('    expect:', '      calls:', '        - tool: get_weather', '          args: {city: [Paris, Zürich]}');
  }
  return `${out.join('\n')}\n`;
}

describe('suite cases read again from a large file', () => {
  const file = join(dir, 'big.yaml');
  writeFileSync(file, suiteText(2_000));

  it('are the cases the whole-file loader gives, in order, on every iteration', () => {
    const streamed = loadSuite(file, { streamBytes: 1 });
    const whole = loadSuite(file, { streamBytes: Number.POSITIVE_INFINITY });
    expect(streamed.cases).toBeInstanceOf(FileCases);
    expect(whole.cases).not.toBeInstanceOf(FileCases);
    expect(streamed.cases.count).toBe(2_000);
    expect(wholeSuite(streamed)).toEqual(wholeSuite(whole));
    expect([...streamed.cases]).toEqual([...whole.cases]); // a second pass reads the file again
    expect([...streamed.cases.entries()].at(-1)?.[0]).toBe(1_999);
  });

  it('are filtered by --filter and --tag with their indices in the file kept', () => {
    const [s] = selectCases([loadSuite(file, { streamBytes: 1 })], { globs: ['c1*'], tags: ['third'] });
    const ids = [...s!.cases].map((c) => c.id);
    expect(s!.cases.count).toBe(ids.length);
    expect(ids.slice(0, 3)).toEqual(['c12', 'c15', 'c18']);
    expect([...s!.cases.entries()][0]?.[0]).toBe(12);
  });

  it('stop with SUITE_INVALID, naming the file, when the file changes during a run', () => {
    const changing = join(dir, 'changing.yaml');
    writeFileSync(changing, suiteText(1_000));
    const { cases } = loadSuite(changing, { streamBytes: 1 });
    const it = cases[Symbol.iterator]();
    expect(it.next().value?.id).toBe('c0');
    writeFileSync(changing, suiteText(1_000).replace('c999', 'x999'));
    utimesSync(changing, new Date(), new Date(Date.now() + 5_000));
    let error: unknown;
    try {
      for (let r = it.next(); !r.done; r = it.next()) {
        // read on into the next batch
      }
    } catch (e) {
      error = e;
    }
    expect(isToolgaugeError(error) && error.code).toBe('SUITE_INVALID');
    expect(String(error)).toContain('changing.yaml: the suite file changed');
  });

  it('leave a file with a problem to the whole-file loader, which locates it', () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, suiteText(1_500).replace('  - id: c1234\n', '  - id: c1234\n    promt: typo\n'));
    expect(() => loadSuite(bad, { streamBytes: 1 })).toThrow(
      /bad\.yaml:\d+:5: cases\[1234\]\.promt: unknown key 'promt'; did you mean 'prompt'\?/,
    );
  });
});
