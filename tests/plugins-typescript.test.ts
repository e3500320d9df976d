import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { FIXTURES, ROOT, readRecords, runCli, runDirFrom } from './cli-helpers.js';

// TypeScript plugins by path load through tsx's tsImport: the example plugins of examples/plugins/ (which import
// their types from 'toolgauge') run in a real eval, each kind through its own config key.
const EXAMPLES = join(ROOT, 'examples', 'plugins');
const dir = mkdtempSync(join(tmpdir(), 'tg-plugin-ts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(name: string, body: Record<string, unknown>): string {
  const file = join(dir, `${name}.config.yaml`);
  writeFileSync(file, JSON.stringify({ suites: [join(FIXTURES, 'mini.yaml')], out: join(dir, name), ...body }));
  return file;
}

const cases = (stderr: string) =>
  readRecords(join(runDirFrom(stderr), 'run.jsonl')).filter((r): r is CaseRecord => r.type === 'case');

describe('TypeScript plugins by path run in a real eval', () => {
  it('a .ts renderer and a .ts grader, beside the built-ins', async () => {
    const file = config('renderer-grader', {
      renderers: [join(EXAMPLES, 'json-schema-renderer.ts'), 'full-details'],
      providers: ['sim:oracle'],
      graders: ['correct-arguments', join(EXAMPLES, 'few-turns-grader.ts')],
    });
    const res = await runCli(['eval', '-c', file, '-q']);
    expect(res.code, res.stderr).toBe(0);
    const records = cases(res.stderr);
    const ours = records.filter((r) => r.renderer.endsWith('json-schema-renderer.ts'));
    expect(ours).toHaveLength(3);
    // the plugin's prompt is what the model got
    expect(ours[0]?.transcript.turns[0]?.request.system).toContain('input schema: {');
    for (const r of records) {
      const fewTurns = r.grades.find((g) => g.grader === 'few-turns');
      expect(fewTurns?.pass, JSON.stringify(r.grades)).toBe(true);
      expect(fewTurns?.reason).toMatch(/^\d turn\(s\), stopped: answered$/);
    }
    // sim:oracle calls the right tool with the plugin's xml-tags prompt too
    const metadata = ours.find((r) => r.case === 'metadata');
    expect(metadata?.grades.find((g) => g.grader === 'correct-arguments')?.pass).toBe(true);
  });

  it('a .ts provider made from its options, and a .ts reporter', async () => {
    const file = config('provider-reporter', {
      renderers: ['full-details'],
      providers: [{ id: join(EXAMPLES, 'canned-provider.ts'), options: { reply: 'Paris is the capital.' } }],
      reporters: ['default', join(EXAMPLES, 'failures-reporter.ts')],
      gate: { baseline: 'none' },
    });
    const res = await runCli(['eval', '-c', file, '-q']);
    expect(res.stderr).toMatch(/failures: 2 of 3 case\(s\), gate exit \d/);
    const runDir = runDirFrom(res.stderr);
    const records = cases(res.stderr);
    expect(records.map((r) => r.transcript.finalText)).toEqual(Array(3).fill('Paris is the capital.'));
    // the irrelevance case passes; the two that needed a call fail, and the reporter listed exactly those
    const failures = readFileSync(join(runDir, 'failures.txt'), 'utf8').trim().split('\n');
    expect(failures.map((l) => l.split('\t')[0]?.split('|')[0]).sort()).toEqual([
      'mini/metadata',
      'mini/read-sheet-zh',
    ]);
    expect(existsSync(join(runDir, 'report.html'))).toBe(true);
  });
});
