import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay, setImmediate as nextTick } from 'node:timers/promises';
import { redactSecrets, registerCredentials } from '../../providers/shared/redact.js';
import { type PoolOptions, ServerPool } from '../catalog/server-pool.js';
import type { LoadedSuite } from '../config/load-suite.js';
import type { ProviderSlot, Strategy } from '../plugins/index.js';
import { RunAggregate } from '../run-log/aggregate.js';
import { caseRecords } from '../run-log/reader.js';
import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import { RunLogWriter } from '../run-log/writer.js';
import { lockRunDir } from '../util/run-lock.js';
import { type PlanItem, plan } from './plan.js';
import { type CaseSettings, runCase } from './run-case.js';
import { RunContext } from './run-context.js';

export interface EvalInput {
  header: RunHeader;
  runDir: string;
  suites: LoadedSuite[];
  strategies: Strategy[];
  providers: ProviderSlot[];
  repeats: number;
  concurrency: number;
  settings: CaseSettings;
  /**
   * Resuming: the interrupted run's log. Its finished records (no `error`) are kept in the new log, counted and
   * skipped in the plan; they are streamed from the file one at a time and each is handed to `onKept` (the reports).
   */
  resume?: { runLog: string; onKept?: (record: CaseRecord) => void };
  /** Only items this accepts are run (a `--shard`, or the cases `replay` re-runs); default: all. */
  include?: (item: PlanItem) => boolean;
  signal: AbortSignal;
  onCase?: (record: CaseRecord, done: number) => void;
  /** What the run's server pool shares with the check before it (servers that timed out), and where it speaks. */
  pool?: PoolOptions;
}

export interface EvalOutcome {
  aggregate: RunAggregate;
  interrupted: boolean;
  runLog: string;
}

const YIELD_MS = 10;

/**
 * The run log, opened for the cases still to run: a new log (the header), or for `--resume` the header and the
 * finished records kept from the interrupted run. Those are written to a new file that replaces run.jsonl only once it
 * is complete and on disk, so a run killed while its log is being rewritten leaves the old log whole (and a bad line
 * in the old log stops the resume with the old log untouched). The old log is streamed: each kept record is written,
 * handed to `keep` and dropped, so a resumed run of any size holds none of them.
 */
async function openRunLog(
  runLog: string,
  header: RunHeader,
  resume: EvalInput['resume'],
  keep: (record: CaseRecord) => void,
): Promise<RunLogWriter> {
  if (!resume) {
    const writer = new RunLogWriter(runLog, 'create');
    writer.write(header);
    return writer;
  }
  const next = `${runLog}.resuming`;
  const rewrite = new RunLogWriter(next, 'create');
  try {
    rewrite.write(header);
    for await (const r of caseRecords(resume.runLog)) {
      if (r.error) continue; // unfinished (an infrastructure fault): run again
      rewrite.write(r);
      keep(r);
    }
  } catch (e) {
    rewrite.close();
    rmSync(next, { force: true });
    throw e;
  }
  rewrite.close();
  renameSync(next, runLog);
  return new RunLogWriter(runLog, 'append');
}

/**
 * Runs the plan with bounded concurrency (a fixed set of workers pulling from the lazy plan), streaming each
 * finished case to run.jsonl. On abort, in-flight cases are dropped (not logged) so `--resume` reruns them.
 */
export async function runEval(input: EvalInput): Promise<EvalOutcome> {
  const runLog = join(input.runDir, 'run.jsonl');
  const lock = lockRunDir(input.runDir, input.resume ? 'eval --resume' : 'eval');
  // Provider plugins and simulated providers take options no provider parser has seen: register what they carry
  // too, so the effective config in the header — and anything quoting it later — is written redacted.
  registerCredentials(input.header.config);
  const header = redactSecrets(input.header);
  const aggregate = new RunAggregate(header);
  const done = new Set<string>();
  let completed = 0;
  let writer: RunLogWriter;
  try {
    writer = await openRunLog(runLog, header, input.resume, (r) => {
      aggregate.add(r);
      done.add(r.key);
      completed++;
      input.resume?.onKept?.(r);
    });
  } catch (e) {
    lock.release();
    throw e;
  }
  const pool = new ServerPool(input.pool);
  const context = input.settings.context ?? new RunContext();
  const settings: CaseSettings = { ...input.settings, context };
  const items = plan(input.suites, input.strategies, input.providers, input.repeats);
  const next = (): PlanItem | undefined => {
    for (;;) {
      const it = items.next();
      if (it.done) return undefined;
      if (!done.has(it.value.key) && (input.include?.(it.value) ?? true)) return it.value;
    }
  };
  // With a provider that answers at once (simulated, cassettes) a whole run can complete in microtasks without ever
  // returning to the event loop: no signal handler (Ctrl-C), no timer, no progress. Yield every few milliseconds.
  let lastYield = performance.now();
  const worker = async () => {
    for (let item = next(); item && !input.signal.aborted; item = next()) {
      if (performance.now() - lastYield > YIELD_MS) {
        lastYield = performance.now();
        await nextTick();
      }
      // Every record is redacted once here, before the run log, the reports and the progress line see it: a
      // provider plugin (or a tool server) may quote a credential in an error or a reply.
      const record = redactSecrets(await runCase(item, pool, settings, input.signal));
      // A terminal's Ctrl-C reaches the stdio servers too; one may die before our own SIGINT handler has run.
      // Give the signal a moment to land so such a case is treated as interrupted, not as a server crash.
      if (record.error?.code === 'SERVER_CRASH' && !input.signal.aborted) await delay(250);
      if (input.signal.aborted && record.error) break; // unfinished: leave it for --resume
      writer.write(record);
      aggregate.add(record);
      completed++;
      input.onCase?.(record, completed);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, input.concurrency) }, worker));
  } finally {
    await pool.closeAll();
    await Promise.all(input.providers.map((p) => p.provider.close?.()));
    const interrupted = input.signal.aborted;
    writer.write({
      type: 'footer',
      finishedAt: new Date().toISOString(),
      interrupted,
      completed,
      errors: aggregate.totalErrors,
    });
    writer.close();
    context.prompts.save();
    lock.release();
  }
  return { aggregate, interrupted: input.signal.aborted, runLog };
}
