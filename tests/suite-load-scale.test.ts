import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'tg-suite-scale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A block-style YAML suite of n cases (the shape `yaml` writes), with `edit` applied to each case's lines. */
function writeSuite(name: string, n: number, edit: (i: number, lines: string[]) => string[] = (_, l) => l): string {
  const parts = [
    'name: scale',
    'tools:',
    '  - name: get_weather',
    '    description: Current weather for a city.',
    '    inputSchema:',
    '      type: object',
    '      properties:',
    '        city:',
    '          type: string',
    '      required: [city]',
    'cases:',
  ];
  for (let i = 0; i < n; i++) {
    const lines = [
      `  - id: q${i}`,
      `    prompt: What is the weather in Paris? (question ${i})`,
      '    expect:',
      '      calls:',
      '        - tool: get_weather',
      '          args:',
      '            city:',
      '              - Paris',
      '    results:',
      '      get_weather: Sunny, 21 °C',
    ];
    parts.push(...edit(i, lines));
  }
  const file = join(dir, name);
  writeFileSync(file, `${parts.join('\n')}\n`);
  return file;
}

/** Loads a suite in a child process under a heap cap: its stdout, or its stderr and exit status when it fails. */
function loadUnderCap(file: string, heapMb: number): { ok: boolean; out: string } {
  const script = join(dir, 'load.ts');
  writeFileSync(
    script,
    [
      `import { loadSuite } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/config/load-suite.ts')).href)};`,
      'try {',
      '  const { cases } = loadSuite(process.argv[2]);',
      '  let read = 0;',
      '  for (const c of cases) if (c.id) read++;',
      "  console.log('cases ' + cases.count + ' read ' + read + ' heapUsed ' + Math.round(process.memoryUsage().heapUsed / 2 ** 20));",
      "} catch (e) { console.log('error: ' + e.message); }",
    ].join('\n'),
  );
  try {
    const out = execFileSync(process.execPath, [`--max-old-space-size=${heapMb}`, '--import', 'tsx', script, file], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { ok: true, out };
  } catch (e) {
    const err = e as { status: number | null; signal: string | null; stderr: string };
    return { ok: false, out: `exit ${err.status ?? err.signal}: ${err.stderr.slice(-600)}` };
  }
}

describe('loading a large YAML suite', () => {
  it('loads and validates 100,000 cases under a 256 MB heap cap', () => {
    const file = writeSuite('s100k.yaml', 100_000);
    const { ok, out } = loadUnderCap(file, 256);
    expect(ok, out).toBe(true);
    expect(out).toMatch(/^cases 100000 /);
  }, 180_000);

  it('names file:line:col of problems deep in a 20,000-case suite, under the same cap', () => {
    const wrong = writeSuite('wrong20k.yaml', 20_000, (i, lines) =>
      i === 15_000 ? lines.map((l) => l.replace('          args:', '          argz:')) : lines,
    );
    const dup = writeSuite('dup20k.yaml', 20_000, (i, lines) =>
      i === 19_999 ? [lines[0]!.replace('q19999', 'q7'), ...lines.slice(1)] : lines,
    );
    // The positions the located parser gives for the same paths in the whole file.
    const lineCounter = new LineCounter();
    const doc = parseDocument(readFileSync(dup, 'utf8'), { lineCounter });
    const at = (path: unknown[]) => {
      const node = doc.getIn(path, true) as { range: [number] };
      const pos = lineCounter.linePos(node.range[0]);
      return `${pos.line}:${pos.col}`;
    };
    // Case i starts on line 12 + 10 i, its call 4 lines below.
    expect(at(['cases', 15_000, 'expect', 'calls', 0])).toBe(`${12 + 10 * 15_000 + 4}:11`);
    const a = loadUnderCap(wrong, 256);
    expect(a.ok, a.out).toBe(true);
    // the unknown key itself, on the line below the call's first: where `args:` stands in the other file
    expect(a.out).toContain(
      `wrong20k.yaml:${12 + 10 * 15_000 + 5}:11: cases[15000].expect.calls[0].argz: unknown key 'argz'; did you mean 'args'?`,
    );
    const b = loadUnderCap(dup, 256);
    expect(b.ok, b.out).toBe(true);
    expect(b.out).toContain(`dup20k.yaml:${at(['cases', 19_999, 'id'])}: cases[19999].id: duplicate case id 'q7'`);
  }, 180_000);
});
