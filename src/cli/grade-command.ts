import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gitCommit, newRunId } from '../api/run-meta.js';
import { resolveSuitePath } from '../config/load-config.js';
import { loadSuite } from '../config/load-suite.js';
import { ToolgaugeError } from '../errors.js';
import { finishRun } from '../gate/finish-run.js';
import { gradeOutputs } from '../offline/grade-outputs.js';
import { protocolFlag, textProtocolOf } from '../offline/recorded-transcript.js';
import { resolveGraders } from '../plugins/index.js';
import { REPORT_FILES, ReportSink } from '../report/report-sink.js';
import { RUN_LOG_FORMAT } from '../run-log/schema.js';
import { displayPath } from '../util/display-path.js';
import { prepareOutputFolder } from '../util/output-folder.js';
import { toolgaugeVersion } from '../util/package-root.js';
import { parseShard } from '../util/shard.js';
import { abortOnInterrupt } from './interrupt.js';
import { printFinished } from './print-finished.js';
import { Progress } from './progress.js';

export interface GradeFlags {
  suite: string;
  outputs: string;
  /** Label of the renderer column (default `recorded`). */
  renderer?: string;
  /** Text protocol of `output` lines: python-call (default for imported BFCL suites), xml-tags (default), json, native. */
  protocol?: string;
  grader?: string[];
  /** Reports folder (default `reports`); the run goes to <out>/<run-id>/. */
  out?: string;
  /** `--shard i/n`: grade only the lines whose case hashes to shard i of n (as eval partitions cases). */
  shard?: string;
  quiet?: boolean;
}

/**
 * `toolgauge grade --suite S --outputs F.jsonl [--renderer R] [--protocol P] [--grader G…] [--out DIR] [--shard i/n]`: grades
 * recorded outputs (production logs, BFCL result files) with the suite's expectations, writes run.jsonl and the
 * same reports as `eval`, shows progress on stderr and prints the summary. Exit 0 (2 on bad input, 130 when
 * interrupted: the lines graded so far are kept and reported).
 */
export async function gradeCommand(flags: GradeFlags): Promise<number> {
  const forced = flags.protocol === undefined ? undefined : protocolFlag(flags.protocol);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  const cwd = process.cwd();
  const loaded = loadSuite(resolveSuitePath(flags.suite, cwd));
  const graders = await resolveGraders(flags.grader, cwd, (i) => `--grader ${flags.grader?.[i]}`);
  const textProtocol = textProtocolOf(loaded);
  const runId = newRunId();
  const runDir = resolve(flags.out ?? 'reports', runId);
  // the reports folder is checked before any line is read: a folder that cannot be written is one line, exit 2
  const undo = prepareOutputFolder(resolve(flags.out ?? 'reports'), `--out ${flags.out ?? 'reports'}`);
  try {
    return await gradeInto(flags, runId, runDir, { forced, shard, cwd, loaded, graders, textProtocol });
  } catch (e) {
    undo(); // (a folder it made that is still empty)
    throw e;
  }
}

async function gradeInto(
  flags: GradeFlags,
  runId: string,
  runDir: string,
  at: {
    forced: ReturnType<typeof protocolFlag> | undefined;
    shard: ReturnType<typeof parseShard> | undefined;
    cwd: string;
    loaded: ReturnType<typeof loadSuite>;
    graders: Awaited<ReturnType<typeof resolveGraders>>;
    textProtocol: ReturnType<typeof textProtocolOf>;
  },
): Promise<number> {
  const { forced, shard, cwd, loaded, graders, textProtocol } = at;
  // `--outputs -`: standard input, spooled to a temporary file (the file is read twice: validated, then graded)
  const stdin = flags.outputs === '-' ? await spoolStdin() : undefined;
  const outputsFile = stdin?.file ?? resolve(flags.outputs);
  const outputsLabel = stdin ? 'stdin' : flags.outputs;
  const renderer = flags.renderer ?? 'recorded';
  let progress: Progress | undefined;
  // Every report is written as lines are graded, as eval does (nothing read back from run.jsonl).
  let sink: ReportSink | undefined;
  const controller = new AbortController();
  const stopListening = abortOnInterrupt(controller, 'stopping after the lines being graded');
  let graded: Awaited<ReturnType<typeof gradeOutputs>>;
  try {
    graded = await gradeOutputs({
      suite: { ...loaded, file: displayPath(loaded.file) },
      outputsFile,
      outputsLabel,
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
          outputs: flags.outputs,
          protocol: flags.protocol ?? textProtocol,
          graders: graders.map((g) => g.name),
          repeats: 1,
        },
        ...(shard ? { shard } : {}),
      },
      ...(shard ? { shard } : {}),
      renderer,
      textProtocol: forced ?? textProtocol,
      graders,
      onStart(planned, header) {
        const part = shard ? ` (shard ${shard.index}/${shard.count})` : '';
        process.stderr.write(
          `toolgauge: grading ${planned} line(s)${part} of ${stdin ? 'stdin' : displayPath(outputsFile)} against ${loaded.suite.name} → ${displayPath(runDir)}\n`,
        );
        progress = new Progress(planned, process.stderr, flags.quiet);
        sink = new ReportSink(runDir, header, { hostname: hostname() });
      },
      onCase(record, done) {
        sink?.add(record);
        progress?.update(record, done);
      },
      signal: controller.signal,
    });
  } catch (e) {
    sink?.discard();
    throw e;
  } finally {
    stopListening();
    stdin?.remove();
  }
  progress?.end();
  const { aggregate, interrupted } = graded;
  // No gate: grading recorded replies measures them; it has no baseline to regress from.
  const finished = await finishRun({
    aggregate,
    runDir,
    displayDir: displayPath(runDir),
    interrupted,
    cancelled: interrupted,
    gate: null,
    configDir: cwd,
    // (onStart always ran before gradeOutputs returned)
    reports: sink as ReportSink,
  });
  // -q hides the progress only, as eval's does: the summary is the command's answer
  printFinished(finished, { quiet: flags.quiet === true });
  process.stderr.write(`grade: wrote run.jsonl, ${REPORT_FILES.join(', ')} in ${displayPath(runDir)}\n`);
  if (interrupted) {
    process.stderr.write(
      `grade: interrupted after ${aggregate.total} of the file's lines; every graded line is kept\n`,
    );
  }
  return finished.exitCode;
}

/** Standard input copied to a file in a fresh temporary folder, removed after grading. */
async function spoolStdin(): Promise<{ file: string; remove: () => void }> {
  if (process.stdin.isTTY) {
    throw new ToolgaugeError(
      'USAGE',
      '--outputs -: standard input is a terminal; pipe the JSONL into it or pass a file',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'toolgauge-stdin-'));
  const file = join(dir, 'outputs.jsonl');
  await pipeline(process.stdin, createWriteStream(file));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
