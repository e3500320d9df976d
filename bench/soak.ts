/**
 * Soak test: the real CLI on ≥ 10,000 cases against a model that times out, rate-limits, fails, resets and sends
 * garbage or hostile text, and an MCP server that crashes, hangs and answers too much — interrupted at random by
 * SIGINT and SIGKILL and resumed each time. Then it checks what a user relies on: every planned case logged exactly
 * once, no torn line, no process left behind, no key in any file written, and a report equal to the log's.
 *
 *   node --import tsx bench/soak.ts [--cases 10000] [--minutes 5] [--seed 1] [--concurrency 8] [--built]
 *
 * Loopback only (the model mock listens on 127.0.0.1, the MCP server is a stdio child). Exits 1 if a check fails.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { processesWith } from '../tests/fixtures/mcp-support/processes.js';
import { ROOT } from './paths.js';
import { checkLog, reportMismatches, secretsIn } from './soak/checks.js';
import { runCli } from './soak/cli.js';
import { HOSTILE, prng, startSoakLlm } from './soak/llm.js';
import type { BenchResult } from './types.js';

export interface SoakOptions {
  cases?: number;
  minutes?: number;
  seed?: number;
  concurrency?: number;
  /** Run `node bin/toolgauge.js` (needs `npm run build`) instead of the TypeScript source through tsx. */
  built?: boolean;
  log?: (line: string) => void;
}

const FAULTY = join(ROOT, 'tests/fixtures/mcp-faulty/server.mjs');
const RENDERERS = ['full-details', 'native-functions'];
const REPEATS = 10;
const PROVIDER_TIMEOUT_MS = 1_000;

type CaseKind = 'whoami' | 'crash' | 'hang' | 'huge' | 'hostile';

/** The case mix: mostly well-behaved calls, a few percent of each fault (every repeat and renderer runs it). */
function kindOf(r: number): CaseKind {
  if (r < 0.01) return 'crash';
  if (r < 0.015) return 'hang';
  if (r < 0.018) return 'huge';
  if (r < 0.05) return 'hostile';
  return 'whoami';
}

/** Writes the suite and config; returns the config path and the planned "case|renderer|repeat" items. */
function writePlan(
  dir: string,
  o: Required<Omit<SoakOptions, 'log' | 'built'>>,
  marker: string,
  llmUrl: string,
  canaryHeader: string,
) {
  const random = prng(o.seed + 1);
  const unique = Math.ceil(o.cases / (RENDERERS.length * REPEATS));
  const kinds: Record<CaseKind, number> = { whoami: 0, crash: 0, hang: 0, huge: 0, hostile: 0 };
  const cases = Array.from({ length: unique }, (_, i) => {
    // A golden-ratio sequence spreads each kind evenly over the cases (a few hundred cases still get every fault).
    const kind = kindOf((i * 0.6180339887 + random() * 0.001) % 1);
    kinds[kind]++;
    const id = `c${String(i).padStart(5, '0')}-${kind}`;
    const prompt = kind === 'hostile' ? `Reply hostile ${i % HOSTILE.length}.` : `Use the ${kind} tool.`;
    return { id, prompt, expect: { calls: [{ tool: kind === 'hostile' ? 'whoami' : kind, args: {} }] } };
  });
  writeFileSync(
    join(dir, 'soak.yaml'),
    stringify({
      name: 'soak',
      servers: { faulty: { command: ['node', FAULTY, '--marker', marker], env: { SOAK_MARKER: marker } } },
      cases,
    }),
  );
  const config = join(dir, 'soak.config.yaml');
  writeFileSync(
    config,
    stringify({
      suites: ['soak.yaml'],
      renderers: RENDERERS,
      providers: [
        {
          id: 'openai-compatible:soak-model',
          options: {
            baseURL: `${llmUrl}/v1`,
            apiKeyEnv: 'SOAK_API_KEY',
            headers: { 'X-Soak-Canary': canaryHeader },
            timeoutMs: PROVIDER_TIMEOUT_MS,
            maxRetries: 2,
            stream: false,
          },
        },
      ],
      repeats: REPEATS,
      concurrency: o.concurrency,
      seed: o.seed,
      // A hung tool call costs toolMs of one worker: 500 ms keeps the hang cases' share of the budget small; a restart
      // after a crash or a hang may take seconds on a loaded machine (serverStartMs).
      timeouts: { turnMs: 10_000, caseMs: 30_000, toolMs: 500, serverStartMs: 15_000 },
      out: join(dir, 'reports'),
      gate: { maxInfraErrorRate: 1 },
    }),
  );
  const planned = new Set<string>();
  for (const c of cases) for (const r of RENDERERS) for (let k = 0; k < REPEATS; k++) planned.add(`${c.id}|${r}|${k}`);
  return { config, planned, kinds };
}

/** The run log ends with the footer of a run that was not interrupted. */
function completedRun(runDir: string): boolean {
  const file = join(runDir, 'run.jsonl');
  if (!existsSync(file)) return false;
  const last = readFileSync(file, 'utf8').trimEnd().split('\n').at(-1) ?? '';
  try {
    const rec = JSON.parse(last) as { type?: unknown; interrupted?: unknown };
    return rec.type === 'footer' && rec.interrupted === false;
  } catch {
    return false;
  }
}

/** Processes carrying the marker once the CLI is gone are orphans: report them, then end them (they are ours). */
async function collectOrphans(marker: string, into: Map<number, string>, when: string): Promise<void> {
  const until = Date.now() + 5_000;
  let live = processesWith(marker);
  while (live.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    live = processesWith(marker);
  }
  for (const p of live) {
    into.set(p.pid, `${when}: ${p.cmdline.slice(0, 160)}`);
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export interface SoakResult {
  ok: boolean;
  block: string;
  results: BenchResult[];
}

/** Runs the soak; never throws for a failed check (that is in `ok` and the block). */
export async function soak(options: SoakOptions = {}): Promise<SoakResult> {
  const o = {
    cases: options.cases ?? 10_000,
    minutes: options.minutes ?? 5,
    seed: options.seed ?? 1,
    concurrency: options.concurrency ?? 8,
  };
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const t0 = Date.now();
  const deadline = t0 + o.minutes * 60_000;
  const work = mkdtempSync(join(tmpdir(), 'tg-soak-'));
  const marker = `tg-soak-${randomUUID()}`;
  const canaryKey = `sk-canary-soak-${randomBytes(12).toString('hex')}`;
  const canaryHeader = `hdr-canary-soak-${randomBytes(12).toString('hex')}`;
  const llm = await startSoakLlm({
    seed: o.seed,
    rate: 0.03,
    maxRequests: o.cases * 6,
    timeoutMs: PROVIDER_TIMEOUT_MS,
    apiKey: canaryKey,
  });
  const { config, planned, kinds } = writePlan(work, o, marker, llm.handle.url, canaryHeader);
  const env = { SOAK_API_KEY: canaryKey, SOAK_MARKER: marker };
  const random = prng(o.seed + 2);
  const orphans = new Map<number, string>();
  const problems: string[] = [];
  const signals = { SIGINT: 0, SIGKILL: 0 };
  let resumes = 0;
  let runDir: string | undefined;
  let finished = false;
  let args = ['eval', '-c', config];
  log(`soak: ${planned.size} cases, ${o.minutes} min budget, work folder ${work}`);

  for (let cycle = 0; cycle < 60 && !finished; cycle++) {
    const left = deadline - Date.now();
    // Interrupt during the first 40% of the budget; the last run goes on to the end (or 3 min past the budget).
    const interrupt = Date.now() - t0 < o.minutes * 24_000 && signals.SIGINT + signals.SIGKILL < 20;
    const kill = interrupt
      ? {
          afterMs: 2_000 + Math.floor(random() * 10_000),
          signal: (signals.SIGINT + signals.SIGKILL) % 2 === 0 ? ('SIGINT' as const) : ('SIGKILL' as const),
        }
      : { afterMs: Math.max(left, 0) + 180_000, signal: 'SIGINT' as const };
    const exit = await runCli(options.built === true, args, env, kill, (d) => {
      runDir ??= d;
    });
    await collectOrphans(
      marker,
      orphans,
      `cycle ${cycle + 1} (${exit.sent ?? 'no signal'}, exit ${exit.code ?? exit.signal})`,
    );
    if ((exit.code === 0 || exit.code === 1) && runDir && completedRun(runDir)) {
      finished = true;
      break;
    }
    if (exit.code === 0 || exit.code === 1) {
      // A gate verdict without a finished run log: the CLI claimed success too early.
      problems.push(
        `cycle ${cycle + 1}: exit ${exit.code} but run.jsonl has no final footer: ${exit.stderr.slice(-600)}`,
      );
      break;
    }
    if (!runDir) {
      problems.push(
        `the CLI ended (code ${exit.code}, signal ${exit.signal}) before announcing its run folder: ${exit.stderr.slice(-400)}`,
      );
      break;
    }
    if (exit.sent && interrupt) {
      signals[exit.sent]++;
      const expected = exit.sent === 'SIGINT' ? exit.code === 130 : exit.signal === 'SIGKILL';
      if (!expected)
        problems.push(
          `${exit.sent}: unexpected exit code ${exit.code} signal ${exit.signal}: ${exit.stderr.slice(-400)}`,
        );
      log(`soak: cycle ${cycle + 1}: ${exit.sent} after ${kill.afterMs} ms → exit ${exit.code ?? exit.signal}`);
    } else if (exit.sent) {
      problems.push(`the run did not finish within ${o.minutes} min + 3 min`);
      break;
    } else {
      problems.push(
        `cycle ${cycle + 1}: unexpected exit code ${exit.code} signal ${exit.signal}: ${exit.stderr.slice(-600)}`,
      );
      if (problems.length > 5) break;
    }
    args = ['eval', '--resume', runDir];
    resumes++;
  }
  await llm.close();

  const result = { lost: 0, duplicates: 0, torn: 0, secrets: 0, reportDiffs: 0 };
  let logged = 0;
  let errorsByCode: Record<string, number> = {};
  if (!finished) problems.push('the run never finished');
  if (runDir && existsSync(join(runDir, 'run.jsonl'))) {
    const check = checkLog(join(runDir, 'run.jsonl'), planned);
    logged = check.cases.length;
    errorsByCode = check.errorsByCode;
    result.lost = check.lost.length;
    result.duplicates = check.duplicates.length;
    result.torn = check.torn.length;
    if (check.lost.length)
      problems.push(`lost: ${check.lost.slice(0, 10).join(', ')}${check.lost.length > 10 ? ', …' : ''}`);
    if (check.duplicates.length) problems.push(`duplicated: ${check.duplicates.slice(0, 10).join(', ')}`);
    if (check.torn.length) problems.push(`run.jsonl: ${check.torn.slice(0, 10).join('; ')}`);
    // Re-aggregation: `toolgauge report` on a copy of the log must give the report the run wrote.
    const again = join(work, 're-aggregated', basename(runDir));
    mkdirSync(again, { recursive: true });
    copyFileSync(join(runDir, 'run.jsonl'), join(again, 'run.jsonl'));
    const rep = await runCli(options.built === true, ['report', again], env);
    const csv = (d: string) => (existsSync(join(d, 'results.csv')) ? readFileSync(join(d, 'results.csv'), 'utf8') : '');
    const diffs =
      rep.code === 0
        ? reportMismatches(check, csv(runDir), csv(again))
        : [`toolgauge report failed (${rep.code}): ${rep.stderr.slice(-300)}`];
    if (!csv(runDir)) diffs.push('the run wrote no results.csv');
    result.reportDiffs = diffs.length;
    problems.push(...diffs);
    await collectOrphans(marker, orphans, 'after the checks');
  } else problems.push('no run log');
  // Every file the CLI wrote (the run folders and the re-aggregated report); the soak's own config holds the header.
  const written = [join(work, 'reports'), join(work, 're-aggregated')].filter((d) => existsSync(d));
  const leaks = written.flatMap((d) => secretsIn(d, [canaryKey, canaryHeader]));
  result.secrets = leaks.length;
  problems.push(...leaks.map((l) => `secret: ${l}`));
  if (orphans.size) problems.push(...[...orphans].map(([pid, cmd]) => `orphan ${pid}: ${cmd}`));

  const minutes = (Date.now() - t0) / 60_000;
  const f = llm.faults;
  const mcpFaults = `crash ${kinds.crash * RENDERERS.length * REPEATS}, hang ${kinds.hang * RENDERERS.length * REPEATS}, huge ${kinds.huge * RENDERERS.length * REPEATS}`;
  const block = [
    '── soak result ──',
    `cases planned / logged      ${planned.size} / ${logged} (${minutes.toFixed(1)} min, concurrency ${o.concurrency}, seed ${o.seed})`,
    `model faults injected       timeout ${f.timeout}, 429+Retry-After ${f['http-429']}, 500 ${f['http-500']}, reset ${f.reset}, garbage ${f.garbage} (of ${llm.requests} requests)`,
    `MCP fault cases             ${mcpFaults}`,
    `hostile replies served      ${llm.hostileReplies}`,
    `case errors by code         ${
      Object.entries(errorsByCode)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }`,
    `interruptions / resumes     SIGINT ${signals.SIGINT}, SIGKILL ${signals.SIGKILL} / ${resumes}`,
    `duplicates                  ${result.duplicates}`,
    `lost cases                  ${result.lost}`,
    `torn or misplaced lines     ${result.torn}`,
    `orphan processes            ${orphans.size}`,
    `secrets found               ${result.secrets}`,
    `report ≠ re-aggregation     ${result.reportDiffs}`,
    problems.length ? `FAILED:\n  ${problems.join('\n  ')}` : 'all checks passed',
  ].join('\n');
  const ok = problems.length === 0;
  if (ok) rmSync(work, { recursive: true, force: true });
  else log(`soak: work folder kept for inspection: ${work}`);
  const failures = result.lost + result.duplicates + result.torn + orphans.size + result.secrets + result.reportDiffs;
  const results: BenchResult[] = [
    {
      name: 'soak: cases under faults and kills',
      value: logged,
      unit: 'cases',
      target: `${planned.size.toLocaleString('en-US')}, each logged once`,
      met: finished && logged === planned.size && result.duplicates === 0,
      detail: `${minutes.toFixed(1)} min; model faults: timeout ${f.timeout}, 429 ${f['http-429']}, 500 ${f['http-500']}, reset ${f.reset}, garbage ${f.garbage} of ${llm.requests} requests; MCP fault cases ${mcpFaults}; ${llm.hostileReplies} hostile replies; SIGINT ${signals.SIGINT}, SIGKILL ${signals.SIGKILL}, resumes ${resumes}`,
    },
    {
      name: 'soak: integrity failures',
      value: failures,
      unit: '',
      target: '0',
      met: ok,
      detail: `lost ${result.lost}, duplicated ${result.duplicates}, torn ${result.torn}, orphans ${orphans.size}, secrets ${result.secrets}, report ≠ log ${result.reportDiffs}${ok ? '' : `; ${problems.slice(0, 3).join('; ')}`}`,
    },
  ];
  return { ok, block, results };
}

/** For bench/run.ts (which builds first): the built CLI, default sizes unless given. */
export async function benchSoak(sizes: Pick<SoakOptions, 'cases' | 'minutes'> = {}): Promise<BenchResult[]> {
  const { block, results } = await soak({ ...sizes, built: true });
  process.stderr.write(`${block}\n`);
  return results;
}

function flag(name: string): number | undefined {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : undefined;
  if (v !== undefined && !(Number.isFinite(v) && v > 0)) throw new Error(`${name} wants a positive number`);
  return v;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const opts: SoakOptions = { built: process.argv.includes('--built') };
  for (const [name, key] of [
    ['--cases', 'cases'],
    ['--minutes', 'minutes'],
    ['--seed', 'seed'],
    ['--concurrency', 'concurrency'],
  ] as const) {
    const v = flag(name);
    if (v !== undefined) opts[key] = v;
  }
  const { ok, block } = await soak(opts);
  process.stdout.write(`${block}\n`);
  process.exitCode = ok ? 0 : 1;
}
