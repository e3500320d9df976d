import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runDirFrom } from './cli-helpers.js';

// Custom reporters by path (config `reporters:`) get onRunStart, onCase per case record and onRunEnd, in order, in
// a real eval; async hooks are awaited; a failing reporter is an infrastructure error after the built-in reports.
const dir = mkdtempSync(join(tmpdir(), 'tg-reporter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Appends one JSON line per hook to options.out, each after a macrotask (so the hooks are really awaited). */
const RECORDING = `
import { appendFileSync } from 'node:fs';
const later = () => new Promise((r) => setTimeout(r, 1));
export default function (options) {
  const log = (event) => appendFileSync(options.out, JSON.stringify(event) + '\\n');
  return {
    name: 'recording',
    async onRunStart({ header, runDir }) { await later(); log({ hook: 'onRunStart', runId: header.runId, runDir }); },
    async onCase(record) { await later(); log({ hook: 'onCase', key: record.key, grades: record.grades.length }); },
    async onRunEnd(end) {
      await later();
      log({ hook: 'onRunEnd', total: end.total, errors: end.errors, cells: end.cells.length, gate: end.gate, interrupted: end.interrupted });
    },
  };
}
`;

function setup(name: string, reporters: unknown[], extra: Record<string, unknown> = {}) {
  const sub = join(dir, name);
  mkdirSync(sub);
  writeFileSync(join(sub, 'recording-reporter.mjs'), RECORDING);
  writeFileSync(
    join(sub, 'throwing-reporter.mjs'),
    "export const reporter = { onCase() { throw new Error('disk full'); } };\n",
  );
  const config = join(sub, 'toolgauge.config.yaml');
  writeFileSync(
    config,
    JSON.stringify({
      suites: [join(FIXTURES, 'mini.yaml')],
      renderers: ['names-only', 'full-details'],
      providers: ['sim:oracle'],
      out: 'reports',
      gate: { baseline: 'none' },
      reporters,
      ...extra,
    }),
  );
  return { config, events: join(sub, 'events.jsonl') };
}

const eventsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('custom reporters (real CLI)', () => {
  it('receive onRunStart, onCase for every case and onRunEnd with the gate, beside the built-in reports', async () => {
    const { config, events } = setup('all', [
      'default',
      { name: './recording-reporter.mjs', options: { out: join(dir, 'all', 'events.jsonl') } },
    ]);
    const res = await runCli(['eval', '-c', config, '-q']);
    expect(res.code, res.stderr).toBe(0);
    const runDir = runDirFrom(res.stderr);
    const log = eventsOf(events);
    expect(log.map((e) => e.hook)).toEqual(['onRunStart', ...Array(6).fill('onCase'), 'onRunEnd']);
    expect(log[0]).toMatchObject({ runId: runDir.split('/').pop(), runDir });
    expect(new Set(log.filter((e) => e.hook === 'onCase').map((e) => e.key)).size).toBe(6);
    expect(log[7]).toMatchObject({ total: 6, errors: 0, cells: 2, interrupted: false, gate: { exitCode: 0 } });
    for (const f of ['summary.md', 'report.html', 'results.csv', 'junit.xml', 'run.json'])
      expect(existsSync(join(runDir, f)), f).toBe(true);

    // `toolgauge report` rewrites the reports through the same reporters: every record goes by again
    writeFileSync(events, '');
    const again = await runCli(['report', runDir]);
    expect(again.code, again.stderr).toBe(0);
    expect(eventsOf(events).map((e) => e.hook)).toEqual(['onRunStart', ...Array(6).fill('onCase'), 'onRunEnd']);
  });

  it('a list without `default` writes only the reporters it names (and run.json)', async () => {
    const { config } = setup('csv-only', ['csv']);
    const res = await runCli(['eval', '-c', config, '-q']);
    expect(res.code, res.stderr).toBe(0);
    const files = readdirSync(runDirFrom(res.stderr)).sort();
    expect(files).toEqual(['results.csv', 'run.json', 'run.jsonl']);
  });

  it('a reporter that throws fails the run with exit 3, naming it and its hook, after the built-in reports', async () => {
    const { config } = setup('throwing', ['default', './throwing-reporter.mjs']);
    const res = await runCli(['eval', '-c', config, '-q']);
    expect(res.code, res.stderr).toBe(3);
    expect(res.stderr).toMatch(/reporter \.\/throwing-reporter\.mjs: onCase failed: disk full/);
    const runDir = runDirFrom(res.stderr);
    expect(existsSync(join(runDir, 'report.html'))).toBe(true);
    expect(readdirSync(runDir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('an unknown reporter name is a usage error listing the valid ones', async () => {
    const { config } = setup('unknown', ['fancy']);
    const res = await runCli(['eval', '-c', config, '-q']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /reporters\[0\]: unknown reporter 'fancy'; valid: default, summary, json, csv, junit, html, or a path/,
    );
  });
});
