import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportData } from '../../tests/helpers/report-data.js';
import { passingCases, writeSyntheticRun } from '../../tests/helpers/synthetic-run.js';
import { useTempDirs } from '../../tests/helpers/temp-dirs.js';
import { applyGate } from '../gate/gate.js';
import { loadRun } from '../run-log/load-run.js';
import { caseRecords } from '../run-log/reader.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderRunJson } from './json.js';
import { renderJunit } from './junit.js';
import { ReportSink } from './report-sink.js';
import { writeReports } from './write-reports.js';

const tempDir = useTempDirs();

const dir = tempDir('tg-sink-');

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const c of chunks) out += c;
  return out;
}

describe('one-pass report writing', () => {
  it('writes byte for byte what the two-pass pure renderers produce, failing drill-downs first, and no part files', async () => {
    // Passing and failing cases interleaved over two cells, so "failing first" needs the part files.
    const runDir = writeSyntheticRun(dir, 'mixed', [
      ...passingCases(12, 7, ['parseable', 'correct-arguments']),
      ...passingCases(6, 2, ['parseable'], { provider: 'sim:guesser', renderer: 'names-only' }),
      { case: 'boom', pass: {}, error: { code: 'PROVIDER_HTTP', message: 'HTTP 500 <html>' } },
    ]);
    const run = await loadRun(runDir);
    // a failing gate, so junit.xml's gate suite names the failing cases it kept as the records went by
    const { exitCode, lines, checks } = applyGate(run.aggregate, {
      maxInfraErrorRate: 0.5,
      minPassRate: { parseable: 0.9 },
    });
    for (const maxHtmlCases of [4, 500]) {
      await writeReports({
        runDir,
        runLog: run.runLog,
        displayDir: 'reports/x',
        aggregate: run.aggregate,
        interrupted: false,
        comparison: null,
        gate: { exitCode, lines },
        gateChecks: checks,
        maxHtmlCases,
      });
      const read = (f: string) => readFileSync(join(runDir, f), 'utf8');
      expect(read('results.csv')).toBe(await text(renderCsv(caseRecords(run.runLog))));
      expect(read('junit.xml')).toContain('<failure type="pass-rate"');
      expect(read('junit.xml')).toBe(
        await renderJunit(run.aggregate, caseRecords(run.runLog), {
          hostname: hostnameIn(read('junit.xml')),
          judged: { exitCode, checks },
          comparison: null,
        }),
      );
      const html = read('report.html');
      expect(html).toBe(
        await text(
          renderHtml(run.aggregate, () => caseRecords(run.runLog), {
            maxCases: maxHtmlCases,
            comparison: null,
            gateLines: lines,
          }),
        ),
      );
      const data = reportData(html);
      expect(data.index).toHaveLength(19); // every case listed, whatever the cap
      const failingOrd = data.failing.flatMap((c) => c.c.map(([ord]) => ord));
      const passingOrd = data.passing.flatMap((c) => c.c.map(([ord]) => ord));
      expect(failingOrd.length + passingOrd.length).toBe(Math.min(maxHtmlCases, 19));
      const failing = (ord: number) => /0/.test(String(data.index[ord]?.[7])) || data.index[ord]?.[8] !== 0;
      expect(failingOrd.every(failing)).toBe(true); // details of failing cases first
      expect(passingOrd.some(failing)).toBe(false);
      expect(read('run.json')).toBe(
        `${JSON.stringify(renderRunJson(run.aggregate, { interrupted: false, comparison: null, gate: { exitCode, lines } }), null, 2)}\n`,
      );
    }
    expect(readdirSync(runDir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('discard removes the part files of a run that never finished', async () => {
    const runDir = writeSyntheticRun(dir, 'discarded', passingCases(3, 1, ['parseable']));
    const run = await loadRun(runDir);
    const sink = new ReportSink(runDir, run.header);
    for await (const r of caseRecords(run.runLog)) sink.add(r);
    expect(readdirSync(runDir).filter((f) => f.endsWith('.part')).length).toBeGreaterThan(0);
    sink.discard();
    expect(readdirSync(runDir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});

function hostnameIn(xml: string): string {
  return /hostname="([^"]*)"/.exec(xml)?.[1] ?? '';
}
