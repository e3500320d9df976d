import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HtmlCaseData, MemoryOut } from '../src/report/html-data.js';
import { writeReports } from '../src/report/write-reports.js';
import { loadRun } from '../src/run-log/load-run.js';
import { caseRecords } from '../src/run-log/reader.js';
import { reportData } from './helpers/report-data.js';
import { passingCases, writeSyntheticRun } from './helpers/synthetic-run.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

const dir = tempDir('tg-html-data-');
const G = ['parseable', 'correct-arguments'];

async function collect(maxDetails: number, chunkSize: number) {
  const runDir = writeSyntheticRun(dir, `run-${maxDetails}-${chunkSize}`, [
    ...passingCases(30, 20, G, { renderer: 'full-details' }), // 10 failing
    ...passingCases(30, 30, G, { renderer: 'names-only' }),
    { case: 'boom', pass: {}, error: { code: 'PROVIDER_HTTP', message: 'HTTP 500' } },
    { case: 'boom2', pass: {}, provider: 'sim:guesser', error: { code: 'PROVIDER_HTTP', message: 'HTTP 502' } },
    { case: 'slow', pass: {}, error: { code: 'TIMEOUT', message: 'turn timed out' } },
  ]);
  const run = await loadRun(runDir);
  const outs = { index: new MemoryOut(), failing: new MemoryOut(), passing: new MemoryOut() };
  const data = new HtmlCaseData(run.header, outs, { maxDetails, chunkSize });
  for await (const r of caseRecords(run.runLog)) data.add(r);
  const counts = data.finish();
  const index = JSON.parse(`[${outs.index.text()}]`) as unknown[][];
  const passingChunks = outs.passing.text(counts.passingBytes);
  return { counts, index, errors: data.errors(), passingChunks, meta: data.meta(counts) };
}

describe('report.html case data', () => {
  it('lists every case, embeds details failing first up to the cap, in whole chunks, and says how many', async () => {
    const all = await collect(1000, 7);
    expect(all.counts).toMatchObject({ total: 63, failingTotal: 13, passingTotal: 50, detailed: 63 });
    expect(all.index).toHaveLength(63);

    const capped = await collect(20, 7);
    expect(capped.index).toHaveLength(63); // every case still listed
    // 13 failing details; the passing stream's chunks of 7 fit only whole: one chunk (7 cases) in the 7 left
    expect(capped.counts).toMatchObject({ total: 63, failingTotal: 13, detailed: 20, passingChunks: 1 });
    expect(capped.passingChunks.split(',')).toHaveLength(1);
    const tight = await collect(16, 7); // 3 left after the failing ones: no passing chunk fits
    expect(tight.counts).toMatchObject({ detailed: 13, passingChunks: 0, passingBytes: 0 });
    // an index entry names the chunk holding its details; passing chunks past the kept ones are simply absent
    const where = tight.index.map((e) => e[9]);
    expect(where.filter((w) => typeof w === 'string' && w.startsWith('f'))).toHaveLength(13);
  });

  it('tallies infrastructure errors by code and provider, with examples, apart from failures', async () => {
    const { errors, index } = await collect(1000, 100);
    expect(errors.total).toBe(3);
    expect(errors.codes.map((c) => [c.code, c.count, c.byProvider])).toEqual([
      ['PROVIDER_HTTP', 2, { 'sim:oracle': 1, 'sim:guesser': 1 }],
      ['TIMEOUT', 1, { 'sim:oracle': 1 }],
    ]);
    expect(errors.codes[0]?.examples.map((x) => x.message)).toEqual(['HTTP 500', 'HTTP 502']);
    const boom = index.find((e) => e[2] === 'boom');
    expect(boom?.[8]).toBe('PROVIDER_HTTP');
    expect(boom?.[7]).toBe('--'); // not graded
  });
});

describe('report.html weight', () => {
  it('stays small for a run like the default one: a shared system prompt is stored once per chunk, compressed', async () => {
    const renderers = ['names-only', 'full-details', 'full-details(noFences=true)', 'native-functions'];
    const providers = ['sim:oracle', 'sim:guesser', 'sim:fence-wrapper', 'sim:stopper', 'sim:noisy'];
    const runDir = writeSyntheticRun(
      dir,
      'weight',
      renderers.flatMap((renderer) =>
        providers.flatMap((provider) => passingCases(97, 80, G, { renderer, provider, reply: undefined })),
      ),
    );
    // the default run's prompts are ~3,000 tokens: give every request a long system prompt per strategy
    const log = join(runDir, 'run.jsonl');
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .map((l) =>
        l.replace(/"system":"You can call tools\. \(([^)]*)\)"/, (_m, r: string) =>
          JSON.stringify({
            system: `${`Tool ${r}: read_data_from_excel(filepath, sheet_name, start_cell). `.repeat(150)}`,
          }).slice(1, -1),
        ),
      );
    writeFileSync(log, lines.join('\n'));
    const run = await loadRun(runDir);
    await writeReports({
      runDir,
      runLog: run.runLog,
      displayDir: runDir,
      aggregate: run.aggregate,
      interrupted: false,
    });
    const logBytes = statSync(log).size;
    const pageBytes = statSync(join(runDir, 'report.html')).size;
    expect(logBytes).toBeGreaterThan(15_000_000);
    expect(pageBytes).toBeLessThan(2_000_000);
    expect(reportData(readFileSync(join(runDir, 'report.html'), 'utf8')).index).toHaveLength(1940);
  });
});
