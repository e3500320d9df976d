import { join } from 'node:path';
import type { LoadedSuite } from '../config/load-suite.js';
import { casesById } from '../config/suite-cases.js';
import { suiteHashes } from '../config/suite-hash.js';
import type { Grade, Grader } from '../contracts/grade.js';
import type { Protocol } from '../contracts/model.js';
import type { SuiteCase } from '../contracts/suite.js';
import { ToolgaugeError } from '../errors.js';
import { gradeCase } from '../graders/grade-case.js';
import { RunAggregate } from '../run-log/aggregate.js';
import type { CaseRecord, RunHeader } from '../run-log/schema.js';
import { RunLogWriter } from '../run-log/writer.js';
import { makeFolder } from '../util/output-folder.js';
import { lockRunDir } from '../util/run-lock.js';
import { inShard, type Shard } from '../util/shard.js';
import { type CaseToolList, CaseTools } from './case-tools.js';
import { lineBatches } from './line-batches.js';
import { type OutputLine, outputLineFromText } from './output-line.js';
import { protocolOf, recordedTranscript } from './recorded-transcript.js';

export const RECORDED_PROVIDER = 'recorded';

export interface GradeOutputsInput {
  suite: LoadedSuite;
  /** The JSON Lines file of recorded outputs (streamed twice: validated first, then graded). */
  outputsFile: string;
  /** How the file is named in error messages. */
  outputsLabel?: string;
  runDir: string;
  /** Base header: run id, version, config… (`strategies`, `providers`, `suites`, `plannedCases` are filled in). */
  header: Omit<RunHeader, 'strategies' | 'providers' | 'suites' | 'plannedCases'>;
  /** Label of the renderer column (how the prompt was rendered in production). */
  renderer: string;
  /** Text protocol of `output` lines (lines with tool calls are `native`). */
  textProtocol: Protocol;
  /** Forces one protocol for every line. */
  protocol?: Protocol;
  graders: Grader[];
  /**
   * Grades only the lines whose case falls in this shard (the hash eval partitions cases by), so every line of a
   * case, all models, lands in one shard and the shards' runs merge. The whole file is still validated, and the
   * header lists the models of the whole file, so every shard describes the same experiment.
   */
  shard?: Shard;
  /**
   * Called once the whole file is validated and the run folder exists, before any line is graded: how many lines
   * will be graded, and the run log's header.
   */
  onStart?: (planned: number, header: RunHeader) => void;
  onCase?: (record: CaseRecord, done: number) => void;
  /**
   * Stops the grading early (Ctrl-C): every line graded so far stays in the run log, whose footer says interrupted.
   * Lines are graded in batches without yielding, so an abort takes effect at the end of the batch in hand.
   */
  signal?: AbortSignal;
}

export interface GradeOutputsResult {
  aggregate: RunAggregate;
  runLog: string;
  header: RunHeader;
  /** Stopped by `signal` before the end of the file. */
  interrupted: boolean;
}

/**
 * Lines of a JSON Lines file in batches (memory stays flat), each with the 1-based number of its first line. Each
 * batch is handled synchronously: per-line promises cost more than grading a line.
 */
async function* numberedLines(file: string, label: string): AsyncGenerator<{ first: number; texts: string[] }> {
  let n = 1;
  try {
    for await (const texts of lineBatches(file)) {
      yield { first: n, texts };
      n += texts.length;
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ToolgaugeError('USAGE', `--outputs ${label}: file not found`);
    }
    throw e;
  }
}

/**
 * Grades recorded model outputs against a suite's cases with the same graders, CaseRecord format and run log as
 * `eval`: one transcript per line (one turn per output, parsed as a live reply), no model and no tool execution.
 * The file is validated in a first pass (a bad line stops the run before anything is written, the run folder
 * included), then graded line by line; only counts are held in memory.
 */
export async function gradeOutputs(input: GradeOutputsInput): Promise<GradeOutputsResult> {
  const { suite } = input.suite;
  const label = input.outputsLabel ?? input.outputsFile;
  const cases = casesById(input.suite.cases);
  const { shard } = input;
  /** Whether a case's lines are graded here (always, without a shard). */
  const mine = shard ? new Set([...cases.keys()].filter((id) => inShard(shard, suite.name, id))) : null;
  const models: string[] = [];
  let planned = 0;
  const seen = new Set<string>();
  for await (const { first, texts } of numberedLines(input.outputsFile, label)) {
    for (let i = 0; i < texts.length; i++) {
      const n = first + i;
      const line = outputLineFromText(texts[i] as string, n, label);
      if (!line) continue;
      if (!cases.has(line.caseId)) {
        throw new ToolgaugeError(
          'USAGE',
          `${label}:${n}: case '${line.caseId}' is not in suite ${suite.name} (${input.suite.file}); fix the id or pass the right --suite`,
        );
      }
      const model = line.model ?? RECORDED_PROVIDER;
      if (!seen.has(model)) {
        seen.add(model);
        models.push(model);
      }
      if (!mine || mine.has(line.caseId)) planned++;
    }
  }
  if (seen.size === 0) {
    throw new ToolgaugeError(
      'USAGE',
      `--outputs ${label}: no lines to grade (the file is empty); write one {"case": "<id>", "output": "…"} per line`,
    );
  }
  const header: RunHeader = {
    ...input.header,
    strategies: [{ label: input.renderer, name: 'recorded', options: {} }],
    providers: models.map((m) => ({ label: m, id: m, simulated: false })),
    suites: [{ name: suite.name, file: input.suite.file, cases: input.suite.cases.count }],
    suiteHashes: suiteHashes([input.suite]),
    plannedCases: planned,
  };
  // Created only now: a file with a bad line leaves no empty run folder behind.
  makeFolder(input.runDir);
  const lock = lockRunDir(input.runDir, 'grade');
  input.onStart?.(planned, header);
  const runLog = join(input.runDir, 'run.jsonl');
  const writer = new RunLogWriter(runLog, 'create', { gradeBlobs: false });
  const aggregate = new RunAggregate(header);
  writer.write(header);
  const tools = new CaseTools(input.suite);
  const repeats = new Map<string, number>();
  let done = 0;
  let interrupted = false;
  try {
    for await (const { first, texts } of numberedLines(input.outputsFile, label)) {
      if (input.signal?.aborted) {
        interrupted = true;
        break;
      }
      for (let i = 0; i < texts.length; i++) {
        const line = outputLineFromText(texts[i] as string, first + i, label);
        if (!line || (mine && !mine.has(line.caseId))) continue;
        const c = cases.get(line.caseId) as SuiteCase;
        const provider = line.model ?? RECORDED_PROVIDER;
        const cell = `${c.id}|${provider}`;
        const repeat = repeats.get(cell) ?? 0;
        repeats.set(cell, repeat + 1);
        const record = gradeLine(input, c, line, provider, repeat, tools.cached(c) ?? (await tools.of(c)));
        writer.write(record);
        aggregate.add(record);
        done++;
        input.onCase?.(record, done);
      }
      writer.flush();
    }
  } finally {
    await tools.close();
    writer.write({
      type: 'footer',
      finishedAt: new Date().toISOString(),
      interrupted,
      completed: done,
      errors: aggregate.totalErrors,
    });
    writer.close();
    lock.release();
  }
  return { aggregate, runLog, header, interrupted };
}

function gradeLine(
  input: GradeOutputsInput,
  c: SuiteCase,
  line: OutputLine,
  provider: string,
  repeat: number,
  tools: CaseToolList,
): CaseRecord {
  const started = isoNow();
  const t0 = performance.now();
  const suiteName = input.suite.suite.name;
  const protocol = protocolOf(line.turns, input.textProtocol, input.protocol);
  const transcript = recordedTranscript(line.turns, protocol, `${suiteName}/${c.id}`, input.renderer, tools.context);
  const gradeInput = { case: c, transcript, protocol, tools: tools.list };
  const grades: Grade[] = gradeCase(input.graders, gradeInput);
  return {
    type: 'case',
    key: `${suiteName}/${c.id}|${input.renderer}|${provider}|${repeat}`,
    suite: suiteName,
    case: c.id,
    renderer: input.renderer,
    provider,
    simulated: false,
    repeat,
    protocol,
    catalogHash: tools.hash,
    promptTokens: 0,
    ...(c.tags?.length ? { tags: [...c.tags] } : {}),
    transcript,
    grades,
    startedAt: started,
    durationMs: Math.round(performance.now() - t0),
    // `cached` is optional (no prompt cache offline)
    usage: { input: 0, output: 0 },
  };
}

let isoMs = Number.NaN;
let isoText = '';
let isoSecond = Number.NaN;
let isoPrefix = '';

/**
 * `new Date().toISOString()` without formatting a date per line: the text up to the seconds is formatted once
 * per second, the milliseconds appended (lines are graded several per millisecond).
 */
function isoNow(): string {
  const ms = Date.now();
  if (ms === isoMs) return isoText;
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    // `…T03:12:59.000Z` without `000Z`
    isoPrefix = new Date(second * 1000).toISOString().slice(0, -4);
  }
  isoMs = ms;
  const milli = ms - second * 1000;
  isoText = `${isoPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  return isoText;
}
