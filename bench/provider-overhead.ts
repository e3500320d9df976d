// Harness overhead of a real SDK provider against the LLM wire mock (the mock runs in a child process, so its own
// CPU is not counted): CPU per model turn through the openai provider (and, for comparison, the other SDK
// providers and streaming) on the default transport (node:http, providers/shared/node-http-fetch.ts) next to
// `transport: 'fetch'` and the bare SDK, and throughput with 200 ms of mock latency at concurrency 64 against the ideal.
// Run alone: `node --import tsx bench/provider-overhead.ts`; `npm run bench` runs it with the others.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { echoResponder, startLlmMock } from '../mock-servers/llm/index.js';
import { anthropicFactory } from '../providers/anthropic/index.js';
import { ollamaFactory } from '../providers/ollama/index.js';
import { openaiFactory } from '../providers/openai/index.js';
import { toOpenAIChatParams } from '../providers/openai/to-openai.js';
import { parseProviderOptions } from '../providers/shared/options.js';
import { createTransport } from '../providers/shared/transport.js';
import { renderers } from '../renderers/index.js';
import { ServerPool } from '../src/catalog/server-pool.js';
import { loadSuite } from '../src/config/load-suite.js';
import type { ModelRequest } from '../src/contracts/model.js';
import type { Provider, ProviderFactory } from '../src/contracts/provider.js';
import type { BenchResult } from './types.js';

const SELF = fileURLToPath(import.meta.url);
const CPU_TARGET_MS = 1;
const WARMUP = 500;
const TURNS = 1000;
const ROUNDS = 3;
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

/**
 * The floor under any client: one keep-alive node:http POST of the same JSON to the same mock and a JSON.parse of
 * the reply. On this kind of machine most of it is the kernel waking the mock's process over loopback.
 */
function rawExchange(url: string, agent: http.Agent, payload: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = {
      'content-type': 'application/json',
      authorization: 'Bearer sk-bench-openai',
      'content-length': String(Buffer.byteLength(payload)),
    };
    const req = http.request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString());
        resolve();
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

interface CpuFigure {
  best: number;
  all: number[];
}

/**
 * CPU (user + system) of this process per sequential turn, in ms, for several variants measured in alternating
 * rounds (so a change in the shared machine's load hits every variant alike); best of ROUNDS for each.
 */
async function cpuPerTurn<K extends string>(variants: Record<K, () => Promise<void>>): Promise<Record<K, CpuFigure>> {
  const entries = Object.entries(variants) as [K, () => Promise<void>][];
  for (const [, once] of entries) for (let i = 0; i < WARMUP; i++) await once();
  const out = Object.fromEntries(
    entries.map(([k]): [K, CpuFigure] => [k, { best: Number.POSITIVE_INFINITY, all: [] }]),
  ) as Record<K, CpuFigure>;
  for (let rep = 0; rep < ROUNDS; rep++) {
    for (const [k, once] of entries) {
      const before = process.cpuUsage();
      for (let i = 0; i < TURNS; i++) await once();
      const used = process.cpuUsage(before);
      const ms = (used.user + used.system) / 1000 / TURNS;
      out[k].all.push(ms);
      out[k].best = Math.min(out[k].best, ms);
    }
  }
  return out;
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
  const shown = (f: CpuFigure) => `${ROUNDS} × ${TURNS} sequential turns (best of ${f.all.map(fmt).join(', ')} ms)`;
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
      // The default transport (node:http keep-alive fetch) is what users run; `transport: 'fetch'` (the SDK's own
      // global fetch) is measured alongside for the comparison.
      const provider = makeProvider(cell.factory, fast.url, { stream: cell.stream });
      const viaFetch = makeProvider(cell.factory, fast.url, { stream: cell.stream, transport: 'fetch' });
      const variants: Record<string, () => Promise<void>> = {
        provider: () => turn(provider, request),
        viaFetch: () => turn(viaFetch, request),
      };
      // The same exchange through the bare SDK client (no harness), on the same transport and on its own fetch.
      let bodyKb = 0;
      const closers: (() => Promise<void>)[] = [];
      if (cell.kind === 'openai' && !cell.stream) {
        const body = toOpenAIChatParams('bench-model', request, parseProviderOptions('openai:bench', {}), {
          maxTokensField: 'max_completion_tokens',
        });
        bodyKb = Math.round(JSON.stringify(body).length / 1024);
        const bareNodeHttp = createTransport({ transport: 'node-http' });
        const onNodeHttp = new OpenAI({
          apiKey: 'sk-bench-openai',
          baseURL: `${fast.url}/v1`,
          maxRetries: 0,
          fetch: bareNodeHttp.fetch,
        });
        const ownFetch = new OpenAI({ apiKey: 'sk-bench-openai', baseURL: `${fast.url}/v1`, maxRetries: 0 });
        variants.bareNodeHttp = async () => {
          await onNodeHttp.chat.completions.create(body);
        };
        variants.bareFetch = async () => {
          await ownFetch.chat.completions.create(body);
        };
        const agent = new http.Agent({ keepAlive: true });
        const payload = JSON.stringify(body);
        variants.floor = () => rawExchange(`${fast.url}/v1/chat/completions`, agent, payload);
        closers.push(async () => agent.destroy(), bareNodeHttp.close);
      }
      const cpu = await cpuPerTurn(variants);
      await provider.close?.();
      await viaFetch.close?.();
      for (const close of closers) await close();
      const { provider: ours, viaFetch: theirs, bareNodeHttp, bareFetch, floor } = cpu;
      if (!ours || !theirs) throw new Error('missing measurement');
      let bare = '';
      if (bareNodeHttp && bareFetch && floor) {
        const added = Math.max(0, ours.best - bareNodeHttp.best);
        bare = `; the bare openai SDK alone (same body, no harness) costs ${fmt(bareNodeHttp.best)} ms/turn on the same node:http fetch and ${fmt(bareFetch.best)} ms/turn on its own global fetch; a raw node:http POST of the same body with JSON.parse of the reply (no SDK) costs ${fmt(floor.best)} ms/turn here, most of it the kernel waking the mock's process over loopback`;
        results.push({
          name: 'CPU the harness adds per model turn beyond the bare openai SDK (same 25-tool body, same transport)',
          value: Number(fmt(added)),
          unit: 'ms/turn',
          target: `≤ ${CPU_TARGET_MS} ms/turn`,
          met: added <= CPU_TARGET_MS,
          detail: `provider ${fmt(ours.best)} ms/turn − bare SDK ${fmt(bareNodeHttp.best)} ms/turn, both on the node:http fetch; the rest of a turn is the SDK's own request building and JSON work on a ~${bodyKb} KB body`,
        });
        // A one-tool request: the same path with a small body, where the SDK's per-byte costs are small.
        const small: ModelRequest = { ...request, tools: request.tools?.slice(0, 1) };
        const smallProvider = makeProvider(cell.factory, fast.url, { stream: cell.stream });
        const smallViaFetch = makeProvider(cell.factory, fast.url, { stream: cell.stream, transport: 'fetch' });
        const one = await cpuPerTurn({
          provider: () => turn(smallProvider, small),
          viaFetch: () => turn(smallViaFetch, small),
        });
        await smallProvider.close?.();
        await smallViaFetch.close?.();
        results.push({
          name: 'harness CPU per model turn, openai SDK provider against the wire mock, 1-tool request',
          value: Number(fmt(one.provider.best)),
          unit: 'ms/turn',
          target: `≤ ${CPU_TARGET_MS} ms/turn`,
          met: one.provider.best <= CPU_TARGET_MS,
          detail: `${shown(one.provider)}, default transport (node:http); with transport: 'fetch' ${fmt(one.viaFetch.best)} ms/turn; the excel read case with only its own tool; the mock runs in a child process`,
        });
      }
      results.push({
        name: `harness CPU per model turn, ${cell.name} SDK provider against the wire mock`,
        value: Number(fmt(ours.best)),
        unit: 'ms/turn',
        target: `≤ ${CPU_TARGET_MS} ms/turn`,
        met: ours.best <= CPU_TARGET_MS,
        detail: `${shown(ours)}, default transport (node:http); with transport: 'fetch' ${fmt(theirs.best)} ms/turn; excel read case rendered by native-functions (${request.tools?.length ?? 0} tools); the mock runs in a child process${bare}`,
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
        detail: `${done} turns in ${seconds.toFixed(2)} s = ${achieved.toFixed(1)} turns/s; ideal ${CONCURRENCY} / ${LATENCY_MS / 1000} s = ${ideal} turns/s; this process used ${((used.user + used.system) / 1000 / seconds / 10).toFixed(0)}% of a core; the bare openai SDK (its own global fetch) at the same concurrency reached ${((bare.done / bare.seconds / ideal) * 100).toFixed(1)}% of ideal`,
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
