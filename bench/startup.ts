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
    const once = async (args: string[], cache: string) => {
      const m = await measure(process.execPath, [CLI, 'eval', ...args, '-q'], {
        cwd: dir,
        env: { ...process.env, TOOLGAUGE_CACHE_DIR: cache },
      });
      if (m.code !== 0) throw new Error(`toolgauge eval exited ${m.code}: ${m.stderr.trim().split('\n').at(-1)}`);
      return m.wallS;
    };
    // Warm: the token-count cache knows the prompts (a developer re-running a case); cold: no cache, the tokenizer
    // loads on the first prompt counted. The warm-up run fills the cache and the file cache.
    const series = async (args: string[], cache: string) => {
      await once(args, cache);
      const walls: number[] = [];
      for (let i = 0; i < runs; i++) walls.push(await once(args, cache));
      return median(walls);
    };
    const cacheDir = join(dir, 'cache');
    const warm = await series(['-c', toolgaugeConfig], cacheDir);
    const cold = await series(['-c', toolgaugeConfig], 'off');
    const mcp = await series(
      [
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
      ],
      cacheDir,
    );
    return {
      name: '(d) start-up, one-case eval',
      value: Number(warm.toFixed(3)),
      unit: 's',
      target: '≤ 0.5 s',
      met: warm <= 0.5,
      detail:
        `median of ${runs} after a warm-up, token counts from the cache; without the cache (tokenizer loaded on ` +
        `the main thread): ${cold.toFixed(3)} s; one case against the bundled excel MCP server (loads the MCP SDK): ` +
        `${mcp.toFixed(3)} s`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
