import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCases } from './fixtures/gen-cases.js';
import { measure, median } from './measure.js';
import { CLI, ROOT } from './paths.js';
import type { BenchResult } from './types.js';

/**
 * (d) Start-up: wall time of the built `toolgauge eval` on a one-case suite (inline tool, scripted provider), the
 * median of `runs` after one warm-up (file cache); the same for one case of the bundled excel server as detail.
 */
export async function benchStartup(runs = 5): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-bench-startup-'));
  try {
    const { toolgaugeConfig } = writeCases(dir, 1);
    const once = async (args: string[]) => {
      const m = await measure(process.execPath, [CLI, 'eval', ...args, '-q'], { cwd: dir });
      if (m.code !== 0) throw new Error(`toolgauge eval exited ${m.code}: ${m.stderr.trim().split('\n').at(-1)}`);
      return m.wallS;
    };
    const series = async (args: string[]) => {
      await once(args);
      const walls: number[] = [];
      for (let i = 0; i < runs; i++) walls.push(await once(args));
      return median(walls);
    };
    const inline = await series(['-c', toolgaugeConfig]);
    const mcp = await series([
      '-c',
      join(ROOT, 'tests/fixtures/mini.config.yaml'),
      '--filter',
      'metadata',
      '-r',
      'full-details',
      '-p',
      'sim:oracle',
      '--out',
      join(dir, 'reports'),
    ]);
    return {
      name: '(d) start-up, one-case eval',
      value: Number(inline.toFixed(3)),
      unit: 's',
      target: '≤ 0.5 s',
      met: inline <= 0.5,
      detail: `median of ${runs} after a warm-up; one case against the bundled excel MCP server (loads the MCP SDK): ${mcp.toFixed(3)} s`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
