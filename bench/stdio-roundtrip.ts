// Sequential tools/call round trips over stdio: toolgauge's own MCP client (src/catalog/mcp-connection.ts, the
// path every user `command` server takes) against `toolgauge serve mcp excel` as a real child process.
// Run alone: `node --import tsx bench/stdio-roundtrip.ts`; `npm run bench` runs it with the others.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectServer } from '../src/catalog/mcp-connection.js';
import type { BenchResult } from './types.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGET = 2000;
const WARMUP = 200;
const CALLS = 3000;
const REPS = 3;

export async function benchStdioRoundtrip(): Promise<BenchResult> {
  const conn = await connectServer(
    'excel',
    { command: [process.execPath, '--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'serve', 'mcp', 'excel'] },
    ROOT,
  );
  try {
    const call = async () => {
      const out = await conn.callTool('get_workbook_metadata', { filepath: 'test.xlsx' }, 10_000);
      if (out.isError || !out.text.includes('Sheet1')) throw new Error(`unexpected result: ${out.text.slice(0, 200)}`);
    };
    for (let i = 0; i < WARMUP; i++) await call();
    // Best of a few repetitions: the machine is shared, and the figure is the transport's capacity.
    const rates: number[] = [];
    const latencies: number[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      const t0 = performance.now();
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        await call();
        latencies.push(performance.now() - t);
      }
      rates.push(CALLS / ((performance.now() - t0) / 1000));
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
    const best = Math.round(Math.max(...rates));
    return {
      name: 'stdio tools/call round trips (sequential, 1 client)',
      value: best,
      unit: 'calls/s',
      target: `≥ ${TARGET.toLocaleString('en-US')} calls/s`,
      met: best >= TARGET,
      detail: `${REPS}×${CALLS} get_workbook_metadata calls on \`serve mcp excel\`, each result checked; rates ${rates
        .map((r) => Math.round(r))
        .join(', ')} calls/s; latency p50 ${pct(0.5).toFixed(2)} ms, p99 ${pct(0.99).toFixed(2)} ms`,
    };
  } finally {
    await conn.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await benchStdioRoundtrip();
  process.stdout.write(
    `${r.name}: ${r.value} ${r.unit} (target ${r.target}) ${r.met ? 'MET' : 'NOT MET'}\n  ${r.detail}\n`,
  );
  process.exitCode = r.met ? 0 : 1;
}
