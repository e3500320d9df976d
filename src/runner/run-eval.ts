import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay, setImmediate as nextTick } from 'node:timers/promises';
import { type PoolOptions, ServerPool } from '../catalog/server-pool.js';
import type { LoadedSuite } from '../config/load-suite.js';
import { ToolgaugeError } from '../errors.js';
import type { ProviderSlot, Strategy } from '../plugins/index.js';
import { RunContext } from '../render/run-context.js';
import { RunAggregate } from '../run-log/aggregate.js';
import { caseRecords } from '../run-log/reader.js';
import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import { RunLogWriter } from '../run-log/writer.js';
import { displayPath } from '../util/display-path.js';
import { redactSecrets, registerCredentials } from '../util/redact.js';
import { lockRunDir } from '../util/run-lock.js';
import { errnoCode, isWriteFailure, writeFailed } from '../util/write-failure.js';
import { type PlanItem, plan } from './plan.js';
import { type CaseSettings, runCase } from './run-case.js';

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
  /**
   * Aborts the cases in flight (a second Ctrl-C): each ends at once, and its record is not written, so `--resume`
   * runs it again.
   */
  signal: AbortSignal;
  /**
   * Stops the run (a first Ctrl-C): no new case starts, and the cases in flight go on to their end (within their
   * timeouts) and are written. Absent: only `signal` stops the run.
   */
  stop?: AbortSignal;
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
  onFailure: (failure: ToolgaugeError) => void,
): Promise<RunLogWriter> {
  if (!resume) {
    const writer = new RunLogWriter(runLog, 'create', { onFailure });
    writer.write(header);
    return writer;
  }
  const next = `${runLog}.resuming`;
  try {
    const rewrite = new RunLogWriter(next, 'create');
    try {
      rewrite.write(header);
      for await (const r of caseRecords(resume.runLog)) {
        if (r.error) continue; // unfinished (an infrastructure fault): run again
        rewrite.write(r);
        keep(r);
      }
      rewrite.close();
    } catch (e) {
      try {
        rewrite.close();
      } catch {}
      throw e;
    }
    renameSync(next, runLog);
  } catch (e) {
    rmSync(next, { force: true });
    if (!isWriteFailure(e)) throw e;
    throw new ToolgaugeError(
      'WRITE_FAILED',
      `${writeFailed(next, e).message}; ${displayPath(runLog)} is unchanged: ${retryHint(e)} resume again`,
    );
  }
  return new RunLogWriter(runLog, 'append', { onFailure });
}

/** How to go on after a write failure: make room, or make the folder writable again. */
function retryHint(e: unknown): string {
  const code = (e instanceof ToolgaugeError ? e.details?.errno : undefined) ?? errnoCode(e);
  return code === 'ENOSPC' || code === 'EDQUOT' ? 'free some space, then' : 'once the folder can be written again,';
}

/**
 * Runs the plan with bounded concurrency (a fixed set of workers pulling from the lazy plan), streaming each
 * finished case to run.jsonl. On `stop`, no new case starts and the cases in flight finish and are logged; on abort
 * (`signal`), the cases in flight are dropped (not logged) so `--resume` reruns them. Either way the log ends with
 * a footer marked interrupted.
 *
 * A write that fails (the run log, or a report fed by `onCase`, on a full disk) stops the run the same way as an
 * abort, and runEval then throws: WRITE_FAILED naming the file, how many finished cases the log holds, and how to
 * resume once the disk has room (the log ends on its last whole record).
 */
export async function runEval(input: EvalInput): Promise<EvalOutcome> {
  const runLog = join(input.runDir, 'run.jsonl');
  // a stale lock taken over is a notice for the person running it, said where the run's other notices go
  const notify = input.pool?.notify;
  const lock = lockRunDir(input.runDir, input.resume ? 'eval --resume' : 'eval', notify ? { onNote: notify } : {});
  // Provider plugins and simulated providers take options no provider parser has seen: register what they carry
  // too, so the effective config in the header — and anything quoting it later — is written redacted.
  registerCredentials(input.header.config);
  const header = redactSecrets(input.header);
  const aggregate = new RunAggregate(header);
  const done = new Set<string>();
  let completed = 0;
  let kept = 0;
  // The first failure of a write (or of a report fed with the records): the run stops, the cases in flight are
  // aborted, and it is thrown once the log is closed.
  let failure: unknown;
  const failed = new AbortController();
  const fail = (e: unknown) => {
    failure ??= e;
    failed.abort(e);
  };
  const caseSignal = AbortSignal.any([input.signal, failed.signal]);
  let writer: RunLogWriter;
  try {
    writer = await openRunLog(
      runLog,
      header,
      input.resume,
      (r) => {
        aggregate.add(r);
        done.add(r.key);
        completed++;
        kept++;
        input.resume?.onKept?.(r);
      },
      fail,
    );
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
  const stopped = () => caseSignal.aborted || input.stop?.aborted === true;
  const worker = async () => {
    for (let item = next(); item && !stopped(); item = next()) {
      if (performance.now() - lastYield > YIELD_MS) {
        lastYield = performance.now();
        await nextTick();
      }
      // Every record is redacted once here, before the run log, the reports and the progress line see it: a
      // provider plugin (or a tool server) may quote a credential in an error or a reply.
      const record = redactSecrets(await runCase(item, pool, settings, caseSignal));
      // Stdio servers lead their own process groups, out of reach of a terminal's Ctrl-C, except for the instant
      // between their fork and their own group: a Ctrl-C then ends the server as it starts (SERVER_INTERRUPTED),
      // maybe before our own SIGINT handler has run. Wait for that handler (briefly), then leave the case for
      // --resume: the interrupt ended it, not the server.
      const code = record.error?.code;
      if (code === 'SERVER_INTERRUPTED' && !stopped()) await abortedWithin(1000, caseSignal, input.stop);
      const cutShort = caseSignal.aborted || (stopped() && (code === 'SERVER_CRASH' || code === 'SERVER_INTERRUPTED'));
      if (cutShort && record.error) break; // unfinished: leave it for --resume
      if (failure !== undefined) break;
      try {
        writer.write(record);
        aggregate.add(record);
        completed++;
        input.onCase?.(record, completed);
      } catch (e) {
        fail(e);
        break;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, input.concurrency) }, worker));
  } finally {
    await pool.closeAll();
    await Promise.all(input.providers.map((p) => p.provider.close?.()));
    const interrupted = stopped();
    try {
      if (!writer.failure)
        writer.write({
          type: 'footer',
          finishedAt: new Date().toISOString(),
          interrupted,
          completed,
          errors: aggregate.totalErrors,
        });
      writer.close();
    } catch (e) {
      fail(e);
    }
    context.prompts.save();
    lock.release();
  }
  if (failure !== undefined) throw stoppedBy(failure, input.runDir, runLog, kept + writer.casesOnDisk);
  return { aggregate, interrupted: stopped(), runLog };
}

/** Resolves once one of `signals` aborts, or after `ms`. */
async function abortedWithin(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<void> {
  const any = AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
  await delay(ms, undefined, { signal: any }).catch(() => {});
}

/**
 * The error a run stopped by a failed write ends with: the file and why, how many finished cases the run log holds,
 * and how to go on. Any other failure (a bug in a reporter) is thrown as it is.
 */
function stoppedBy(failure: unknown, runDir: string, runLog: string, saved: number): unknown {
  if (!isWriteFailure(failure)) return failure;
  const first = failure instanceof ToolgaugeError ? failure : writeFailed(runLog, failure);
  return new ToolgaugeError(
    'WRITE_FAILED',
    `${first.message}; the run stopped, and ${displayPath(runLog)} holds the ${saved} case(s) finished before: ${retryHint(first)} continue with: toolgauge eval --resume ${displayPath(runDir)}`,
    { ...first.details, savedCases: saved },
    { cause: failure },
  );
}
