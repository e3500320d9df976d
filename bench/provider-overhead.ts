// Harness overhead of a real SDK provider against the LLM wire mock (the mock runs in a child process, so its own
// CPU is not counted): CPU per model turn through the openai provider (and, for comparison, the other SDK
// providers and streaming), and throughput with 200 ms of mock latency at concurrency 64 against the ideal.
// Run alone: `node --import tsx bench/provider-overhead.ts`; `npm run bench` runs it with the others.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { echoResponder, startLlmMock } from '../mock-servers/llm/index.js';
import { anthropicFactory } from '../providers/anthropic/index.js';
import { ollamaFactory } from '../providers/ollama/index.js';
import { openaiFactory } from '../providers/openai/index.js';
import { toOpenAIChatParams } from '../providers/openai/to-openai.js';
import { parseProviderOptions } from '../providers/shared/options.js';
import { renderers } from '../renderers/index.js';
import { ServerPool } from '../src/catalog/server-pool.js';
import { loadSuite } from '../src/config/load-suite.js';
import type { ModelRequest } from '../src/contracts/model.js';
import type { Provider, ProviderFactory } from '../src/contracts/provider.js';
import type { BenchResult } from './types.js';

const SELF = fileURLToPath(import.meta.url);
const CPU_TARGET_MS = 1;
const WARMUP = 200;
const TURNS = 1000;
const LATENCY_MS = 200;
const CONCURRENCY = 64;
const LATENCY_RUN_MS = 5000;
const RATIO_TARGET = 0.9;

/** Starts the wire mock (echo responder, optional fixed latency) in a child process; resolves with its URL. */
function startMockChild(delayMs: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--mock-child', String(delayMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^url (\S+)$/m.exec(out);
      if (m?.[1]) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`mock child exited (${code}) before announcing its URL`)));
  });
}

async function mockChild(delayMs: number): Promise<void> {
  const handle = await startLlmMock({
    responder: echoResponder,
    ...(delayMs > 0 ? { faults: { byPath: Object.fromEntries(PATHS.map((p) => [p, { delayMs }])) } } : {}),
  });
  process.stdout.write(`url ${handle.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void handle.close().then(() => process.exit(0)));
}
const PATHS = ['/v1/chat/completions', '/v1/messages', '/api/chat'];

/** A realistic first turn: the excel suite's first case rendered by native-functions from the live catalog. */
async function realisticRequest(kind: 'openai' | 'anthropic' | 'ollama'): Promise<ModelRequest> {
  const loaded = loadSuite(fileURLToPath(new URL('../suites/excel.yaml', import.meta.url)));
  const testCase = loaded.suite.cases[0]!;
  const pool = new ServerPool();
  try {
    const session = await pool.openCase(loaded, testCase);
    await session.release();
    const rendered = renderers['native-functions'].render({
      catalog: session.catalog,
      case: testCase,
      options: {},
      provider: { id: `${kind}:bench`, kind },
    });
    return { ...rendered, meta: { caseId: 'bench', repeat: 0, seed: 0, renderer: 'native-functions', turn: 0 } };
  } finally {
    await pool.closeAll();
  }
}

function makeProvider(factory: ProviderFactory, url: string, extra: Record<string, unknown> = {}): Provider {
  const baseURL = factory.prefix === 'openai' ? `${url}/v1` : url;
  return factory.create(
    'bench-model',
    { baseURL, maxRetries: 0, concurrency: CONCURRENCY, ...extra },
    {
      env: { OPENAI_API_KEY: 'sk-bench-openai', ANTHROPIC_API_KEY: 'sk-bench-anthropic' },
    },
  );
}

async function turn(provider: Provider, request: ModelRequest): Promise<void> {
  const res = await provider.generate(request);
  if (res.toolCalls.length !== 1) throw new Error(`expected one tool call, got ${JSON.stringify(res.text)}`);
}

/** CPU (user + system) of this process per sequential turn, in ms; best of 3 (the machine is shared). */
async function cpuPerTurn(once: () => Promise<void>): Promise<{ best: number; all: number[] }> {
  for (let i = 0; i < WARMUP; i++) await once();
  const all: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    const before = process.cpuUsage();
    for (let i = 0; i < TURNS; i++) await once();
    const used = process.cpuUsage(before);
    all.push((used.user + used.system) / 1000 / TURNS);
  }
  return { best: Math.min(...all), all };
}

const fmt = (x: number) => x.toFixed(3);

/** CONCURRENCY loops of `once` for LATENCY_RUN_MS after one warm-up round (which opens the connections). */
async function saturate(once: () => Promise<void>): Promise<{ done: number; seconds: number; used: NodeJS.CpuUsage }> {
  await Promise.all(Array.from({ length: CONCURRENCY }, once));
  let done = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + LATENCY_RUN_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await once();
        done++;
      }
    }),
  );
  return { done, seconds: (performance.now() - t0) / 1000, used: process.cpuUsage(cpu) };
}

export async function benchProviderOverhead(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const fast = await startMockChild(0);
  try {
    const cells: {
      name: string;
      factory: ProviderFactory;
      kind: 'openai' | 'anthropic' | 'ollama';
      stream: boolean;
    }[] = [
      { name: 'openai', factory: openaiFactory, kind: 'openai', stream: false },
      { name: 'openai (stream)', factory: openaiFactory, kind: 'openai', stream: true },
      { name: 'anthropic', factory: anthropicFactory, kind: 'anthropic', stream: false },
      { name: 'ollama', factory: ollamaFactory, kind: 'ollama', stream: false },
    ];
    for (const cell of cells) {
      const request = await realisticRequest(cell.kind);
      const provider = makeProvider(cell.factory, fast.url, { stream: cell.stream });
      const { best, all } = await cpuPerTurn(() => turn(provider, request));
      await provider.close?.();
      // The same exchange through the bare SDK client (no harness), to show what share is ours.
      let bare = '';
      if (cell.kind === 'openai' && !cell.stream) {
        const client = new OpenAI({ apiKey: 'sk-bench-openai', baseURL: `${fast.url}/v1`, maxRetries: 0 });
        const body = toOpenAIChatParams('bench-model', request, parseProviderOptions('openai:bench', {}), {
          maxTokensField: 'max_completion_tokens',
        });
        const sdk = await cpuPerTurn(async () => {
          await client.chat.completions.create(body);
        });
        bare = `; the bare openai SDK alone (same body, no harness) costs ${fmt(sdk.best)} ms/turn, so the harness adds ${fmt(best - sdk.best)} ms`;
        // What toolgauge itself adds on top of the SDK (request conversion, limits, retries, redaction, parsing).
        const added = Math.max(0, best - sdk.best);
        results.push({
          name: 'CPU the harness adds per model turn beyond the bare openai SDK (same 25-tool body)',
          value: Number(fmt(added)),
          unit: 'ms/turn',
          target: `≤ ${CPU_TARGET_MS} ms/turn`,
          met: added <= CPU_TARGET_MS,
          detail: `provider ${fmt(best)} ms/turn − bare SDK ${fmt(sdk.best)} ms/turn; most of a turn's CPU is the SDK's own fetch/JSON work on a ~${Math.round(JSON.stringify(body).length / 1024)} KB body`,
        });
        // A one-tool request: the same path with a small body, where the SDK's per-byte costs are small.
        const small: ModelRequest = { ...request, tools: request.tools?.slice(0, 1) };
        const smallProvider = makeProvider(cell.factory, fast.url, { stream: cell.stream });
        const one = await cpuPerTurn(() => turn(smallProvider, small));
        await smallProvider.close?.();
        results.push({
          name: 'harness CPU per model turn, openai SDK provider against the wire mock, 1-tool request',
          value: Number(fmt(one.best)),
          unit: 'ms/turn',
          target: `≤ ${CPU_TARGET_MS} ms/turn`,
          met: one.best <= CPU_TARGET_MS,
          detail: `${TURNS} sequential turns × 3 (best shown: ${one.all.map(fmt).join(', ')} ms), the excel read case with only its own tool; the mock runs in a child process`,
        });
      }
      results.push({
        name: `harness CPU per model turn, ${cell.name} SDK provider against the wire mock`,
        value: Number(fmt(best)),
        unit: 'ms/turn',
        target: `≤ ${CPU_TARGET_MS} ms/turn`,
        met: best <= CPU_TARGET_MS,
        detail: `${TURNS} sequential turns × 3 (best shown: ${all.map(fmt).join(', ')} ms), excel read case rendered by native-functions (${request.tools?.length ?? 0} tools); the mock runs in a child process${bare}`,
      });
    }
  } finally {
    fast.child.stdin!.end();
  }

  const slow = await startMockChild(LATENCY_MS);
  try {
    const realistic = await realisticRequest('openai');
    const small: ModelRequest = { ...realistic, tools: realistic.tools?.slice(0, 1) };
    for (const [label, request] of [
      ['1 tool', small],
      [`${realistic.tools?.length ?? 0} tools`, realistic],
    ] as const) {
      const provider = makeProvider(openaiFactory, slow.url);
      const run = await saturate(() => turn(provider, request));
      await provider.close?.();
      // The bare SDK client at the same concurrency: the ceiling this machine and mock allow, without the harness.
      const client = new OpenAI({ apiKey: 'sk-bench-openai', baseURL: `${slow.url}/v1`, maxRetries: 0 });
      const body = toOpenAIChatParams('bench-model', request, parseProviderOptions('openai:bench', {}), {
        maxTokensField: 'max_completion_tokens',
      });
      const bare = await saturate(async () => {
        await client.chat.completions.create(body);
      });
      const { done, seconds, used } = run;
      const achieved = done / seconds;
      const ideal = CONCURRENCY / (LATENCY_MS / 1000);
      const ratio = achieved / ideal;
      results.push({
        name: `turns/s with ${LATENCY_MS} ms mock latency at concurrency ${CONCURRENCY} (openai provider, ${label}), share of ideal`,
        value: Number((ratio * 100).toFixed(1)),
        unit: '% of ideal',
        target: `≥ ${RATIO_TARGET * 100}% of ideal`,
        met: ratio >= RATIO_TARGET,
        detail: `${done} turns in ${seconds.toFixed(2)} s = ${achieved.toFixed(1)} turns/s; ideal ${CONCURRENCY} / ${LATENCY_MS / 1000} s = ${ideal} turns/s; this process used ${((used.user + used.system) / 1000 / seconds / 10).toFixed(0)}% of a core; the bare openai SDK at the same concurrency reached ${((bare.done / bare.seconds / ideal) * 100).toFixed(1)}% of ideal`,
      });
    }
  } finally {
    slow.child.stdin!.end();
  }
  return results;
}

const flag = process.argv.indexOf('--mock-child');
if (flag >= 0) {
  await mockChild(Number(process.argv[flag + 1] ?? 0));
} else if (process.argv[1] && SELF === process.argv[1]) {
  for (const r of await benchProviderOverhead()) {
    process.stdout.write(
      `${r.name}: ${r.value} ${r.unit} (target ${r.target}) ${r.met ? 'MET' : 'NOT MET'}\n  ${r.detail}\n`,
    );
  }
}
