import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { resolveSuitePath } from '../config/load-config.js';
import { loadSuite } from '../config/load-suite.js';
import type { CaseRecord, RunHeader } from '../contracts/run-log.js';
import { ToolgaugeError } from '../errors.js';
import { finishRun } from '../gate/finish-run.js';
import { gradeOutputs } from '../offline/grade-outputs.js';
import { protocolFlag, textProtocolOf } from '../offline/recorded-transcript.js';
import { resolveGraders } from '../plugins/index.js';
import { ReportSink } from '../report/report-sink.js';
import { RUN_LOG_FORMAT } from '../run-log/schema.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFolder } from '../util/output-folder.js';
import { toolgaugeVersion } from '../util/package-root.js';
import { parseShard } from '../util/shard.js';
import { gitCommit, newRunId } from './run-meta.js';
import { type RunResult, runResultOf } from './run-result.js';

/** What `toolgauge grade` takes: recorded outputs and the suite whose expectations grade them. */
export interface GradeOptions {
  /** Suite file or bundled suite name. */
  suite: string;
  /** The JSON Lines file of recorded outputs; `-` reads them from `input` (default: standard input). */
  outputs: string;
  /** The stream `-` reads (default: process.stdin, which must not be a terminal). */
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Label of the renderer column (default `recorded`). */
  renderer?: string;
  /** The protocol the outputs were asked for: xml-tags (default), json, python-call (BFCL), tool-named-xml, native. */
  protocol?: string;
  /** Grader names (default: every grader). */
  graders?: string[];
  /** Reports folder (default `reports`): the run goes to <out>/<run-id>/. */
  out?: string;
  /** `i/n`: grade only the lines whose case hashes to shard i of n. */
  shard?: string;
}

/** How a caller follows and stops a grading. */
export interface GradeControl {
  /** Stops after the lines in hand: every line graded so far is kept and reported (exit code 130). */
  signal?: AbortSignal;
  /** Once the outputs are at hand (standard input read to its end), before they are validated and graded. */
  onInput?(): void;
  /** Once the file is validated, before any line is graded: how many lines will be graded, and the run. */
  onStart?(start: { planned: number; runDir: string; header: RunHeader }): void;
  /** Each record as it is written. */
  onRecord?(record: CaseRecord, progress: { done: number; total: number }): void;
}

/**
 * `toolgauge grade` as a function: grades recorded outputs against a suite, writes the run log and every report as
 * eval does, and returns the run (no gate: its exit code is 0, or 130 when stopped by `signal`).
 */
export async function grade(options: GradeOptions, control: GradeControl = {}): Promise<RunResult> {
  const forced = options.protocol === undefined ? undefined : protocolFlag(options.protocol);
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const cwd = process.cwd();
  const loaded = loadSuite(resolveSuitePath(options.suite, cwd));
  const graders = await resolveGraders(options.graders, cwd, (i) => `--grader ${options.graders?.[i]}`);
  const textProtocol = textProtocolOf(loaded);
  const runId = newRunId();
  const out = options.out ?? 'reports';
  const runDir = resolve(out, runId);
  // the reports folder is checked before any line is read: a folder that cannot be written is one error, exit 2
  const undo = prepareOutputFolder(resolve(out), `--out ${out}`);
  let sink: ReportSink | undefined;
  let total = 0;
  let stdin: { file: string; remove: () => void } | undefined;
  try {
    // `-`: standard input, spooled to a temporary file (the file is read twice: validated, then graded)
    if (options.outputs === '-') stdin = await spoolInput(options.input ?? process.stdin);
    control.onInput?.();
    const graded = await gradeOutputs({
      suite: { ...loaded, file: displayPath(loaded.file) },
      outputsFile: stdin?.file ?? resolve(options.outputs),
      outputsLabel: stdin ? 'stdin' : options.outputs,
      runDir,
      header: {
        type: 'header',
        format: RUN_LOG_FORMAT,
        runId,
        toolgaugeVersion: toolgaugeVersion(),
        startedAt: new Date().toISOString(),
        gitCommit: gitCommit(cwd),
        configFile: displayPath(loaded.file),
        config: {
          command: 'grade',
          outputs: options.outputs,
          protocol: options.protocol ?? textProtocol,
          graders: graders.map((g) => g.name),
          repeats: 1,
        },
        ...(shard ? { shard } : {}),
      },
      ...(shard ? { shard } : {}),
      renderer: options.renderer ?? 'recorded',
      textProtocol: forced ?? textProtocol,
      graders,
      onStart(planned, header) {
        total = planned;
        // Every report is written as lines are graded, as eval does (nothing read back from run.jsonl).
        sink = new ReportSink(runDir, header, { hostname: hostname() });
        control.onStart?.({ planned, runDir, header });
      },
      onCase(record, done) {
        sink?.add(record);
        control.onRecord?.(record, { done, total });
      },
      ...(control.signal ? { signal: control.signal } : {}),
    });
    // No gate: grading recorded replies measures them; it has no baseline to regress from.
    const finished = await finishRun({
      aggregate: graded.aggregate,
      runDir,
      displayDir: displayPath(runDir),
      interrupted: graded.interrupted,
      cancelled: graded.interrupted,
      gate: null,
      configDir: cwd,
      // (onStart always ran before gradeOutputs returned)
      reports: sink as ReportSink,
    });
    return runResultOf({ runDir, ...graded }, finished);
  } catch (e) {
    sink?.discard();
    undo(); // (a folder it made that is still empty)
    throw e;
  } finally {
    stdin?.remove();
  }
}

/** A stream copied to a file in a fresh temporary folder, removed after grading. */
async function spoolInput(
  input: NodeJS.ReadableStream & { isTTY?: boolean },
): Promise<{ file: string; remove: () => void }> {
  if (input.isTTY) {
    throw new ToolgaugeError(
      'USAGE',
      '--outputs -: standard input is a terminal; pipe the JSONL into it or pass a file',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'toolgauge-stdin-'));
  const file = join(dir, 'outputs.jsonl');
  await pipeline(input, createWriteStream(file));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
