import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaseRecord } from '../src/run-log/schema.js';
import { readRecords, runCli, runDirFrom } from './cli-helpers.js';
import { useTempDirs } from './helpers/temp-dirs.js';

const tempDir = useTempDirs();

describe('toolgauge render prints what eval sends (one renderCase, real CLI)', () => {
  it('for each renderer, the printed request equals the first request of the same case in an eval run log', async () => {
    const out = tempDir('tg-render-eval-');
    const renderers = ['names-only', 'full-details', 'native-functions', 'cached-schemas'];
    const evalRun = await runCli([
      'eval',
      '--suite',
      'excel',
      '--filter',
      'read-sheet1-zh',
      ...renderers.flatMap((r) => ['--renderer', r]),
      '--provider',
      'sim:oracle',
      '--out',
      out,
      '-q',
    ]);
    const records = readRecords(join(runDirFrom(evalRun.stderr), 'run.jsonl')).filter(
      (r): r is CaseRecord => r.type === 'case',
    );
    expect(records).toHaveLength(renderers.length);
    for (const renderer of renderers) {
      const printed = await runCli([
        'render',
        '--suite',
        'excel',
        '--case',
        'read-sheet1-zh',
        '--renderer',
        renderer,
        '--provider',
        'sim:oracle',
        '--json',
      ]);
      expect(printed.code, printed.stderr).toBe(0);
      const sent = records.find((r) => r.renderer === renderer)?.transcript.turns[0]?.request;
      const { oracle: _oracle, meta: _meta, ...request } = sent as NonNullable<typeof sent> & { oracle?: unknown };
      expect(JSON.parse(printed.stdout), renderer).toEqual(request);
    }
  });
});
